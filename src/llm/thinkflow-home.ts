import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where thinkflow keeps its data when nobody says otherwise: `$THINKFLOW_HOME`, else `~/.thinkflow`.
 * Every default location (stores, the cache, pulled models) is under it, for the CLI and the library alike.
 */
export function thinkflowHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.THINKFLOW_HOME || join(homedir(), '.thinkflow');
}
