#!/usr/bin/env -S node --
// `--`: Node 20 reads `--env-file` even after the script name and exits 9 on a missing file, before
// thinkflow's own `--env-file` can say what is wrong.
import { useColor } from './colors.js';
import { buildProgram } from './program.js';
import { reportError, wantsJson } from './report-error.js';

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.exitCode = reportError(error, { json: wantsJson(), color: useColor(process.stderr) });
  });
