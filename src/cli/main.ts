#!/usr/bin/env node
import { redactText } from '../core/index.js';
import { buildProgram } from './program.js';

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.stderr.write(`thinkflow: ${redactText(error instanceof Error ? error.message : String(error))}\n`);
    process.exitCode = 1;
  });
