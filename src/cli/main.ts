#!/usr/bin/env node
import { useColor } from './colors.js';
import { buildProgram } from './program.js';
import { reportError, wantsJson } from './report-error.js';

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.exitCode = reportError(error, { json: wantsJson(), color: useColor(process.stderr) });
  });
