#!/usr/bin/env node
import { buildProgram } from './program.js';

/** The usage-error exit code: a person must fix the command, the config or the install. */
const USAGE_ERROR = 2;

buildProgram()
  .then((program) => program.parseAsync(process.argv))
  .catch((error: unknown) => {
    process.stderr.write(`thinkflow: ${error instanceof Error ? error.message : String(error)}\n`);
    // Checked by shape (see isThinkflowError), so main.ts imports nothing beyond the program.
    const code = (error as { code?: unknown } | null)?.code;
    process.exitCode = code === 'config' ? USAGE_ERROR : 1;
  });
