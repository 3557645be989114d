import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../core/index.js';

/**
 * Loads environment variables for the CLI: the `--env-file` given, else `.env` in the working directory
 * when there is one; `false` (`--no-env-file`) loads none. Like `node --env-file`, variables already
 * set in the environment win. Returns the file read, if any.
 */
export function loadEnvFile(option: string | boolean | undefined, cwd: string = process.cwd()): string | undefined {
  if (option === false) return undefined;
  if (typeof option === 'string') {
    const path = resolve(cwd, option);
    if (!existsSync(path)) throw new ConfigError({ message: `--env-file ${option}: no such file.` });
    process.loadEnvFile(path);
    return path;
  }
  const path = join(cwd, '.env');
  if (!existsSync(path)) return undefined;
  process.loadEnvFile(path);
  return path;
}
