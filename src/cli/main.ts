#!/usr/bin/env node
import { isThinkflowError } from '../core/index.js';
import { buildProgram } from './program.js';

/** The usage-error exit code: a person must fix the command, the config or the install. */
const USAGE_ERROR = 2;

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.stderr.write(`thinkflow: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = isThinkflowError(error) && error.code === 'config' ? USAGE_ERROR : 1;
  });
