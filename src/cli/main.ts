#!/usr/bin/env -S node --
// `--`: Node 20 reads `--env-file` even after the script name and exits 9 on a missing file, before
// thinkflow's own `--env-file` can say what is wrong.
import { wantsJson } from './global-options.js';
import { buildProgram } from './program.js';

// A reader that left (`thinkflow trace run.jsonl | head`) ends the command quietly, as a pipe's writer
// does, rather than with an unhandled EPIPE's stack trace; other errors of the streams stay errors.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

buildProgram()
  .then((program) => program.parseAsync(process.argv))
  .catch(async (error: unknown) => {
    // `--help` and `--version` end as a commander "error" with exit code 0: nothing more to load or say.
    if ((error as { exitCode?: unknown } | null)?.exitCode === 0) return;
    // Loaded only when something failed, so `thinkflow --help` loads nothing but commander.
    const [{ reportError }, { useColor }] = await Promise.all([import('./report-error.js'), import('./colors.js')]);
    process.exitCode = reportError(error, { json: wantsJson(), color: useColor(process.stderr) });
  });
