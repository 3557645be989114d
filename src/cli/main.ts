#!/usr/bin/env node
import { buildProgram } from './program.js';

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.stderr.write(`thinkflow: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
