#!/usr/bin/env -S node --
// `--`: Node 20 reads `--env-file` even after the script name and exits 9 on a missing file, before
// thinkflow's own `--env-file` can say what is wrong.
import { handleBrokenPipes } from './broken-pipe.js';
import { wantsJson } from './global-options.js';
import { buildProgram } from './program.js';

handleBrokenPipes();
buildProgram()
  .then((program) => program.parseAsync(process.argv))
  .catch(async (error: unknown) => {
    // `--help` and `--version` end as a commander "error" with exit code 0: nothing more to load or say.
    if ((error as { exitCode?: unknown } | null)?.exitCode === 0) return;
    // Loaded only when something failed, so `thinkflow --help` loads nothing but commander.
    const [{ reportError }, { useColor }] = await Promise.all([import('./report-error.js'), import('./colors.js')]);
    process.exitCode = reportError(error, { json: wantsJson(), color: useColor(process.stderr) });
  });
