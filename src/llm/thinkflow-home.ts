import { nodeBuiltin, processEnv } from '../core/index.js';

/**
 * Where thinkflow keeps its data when nobody says otherwise: `$THINKFLOW_HOME`, else `~/.thinkflow`.
 * Every default location (stores, the cache, pulled models) is under it, for the CLI and the library alike.
 * A home folder is Node's (and Bun's, Deno's): elsewhere only `$THINKFLOW_HOME` in `env` answers.
 */
export function thinkflowHome(env: NodeJS.ProcessEnv = processEnv()): string {
  if (env.THINKFLOW_HOME) return env.THINKFLOW_HOME;
  const feature = 'The default data folder (~/.thinkflow)';
  return nodeBuiltin('node:path', feature).join(nodeBuiltin('node:os', feature).homedir(), '.thinkflow');
}
