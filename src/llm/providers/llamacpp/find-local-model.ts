import { nodeBuiltin, processEnv } from '../../../core/index.js';
import { thinkflowHome } from '../../thinkflow-home.js';

const FEATURE = 'Local GGUF models (llamacpp:)';

/** Where `thinkflow models pull` puts GGUF files: `~/.thinkflow/models` (or `$THINKFLOW_HOME/models`). */
export function modelsDir(env: NodeJS.ProcessEnv = processEnv()): string {
  return nodeBuiltin('node:path', FEATURE).join(thinkflowHome(env), 'models');
}

/** The path of the first `*.gguf` file (by name) in the models folder, or undefined when there is none. */
export function findLocalModel(dir: string = modelsDir()): string | undefined {
  let names: string[];
  try {
    names = nodeBuiltin('node:fs', FEATURE).readdirSync(dir);
  } catch {
    return undefined;
  }
  const first = names.filter((name) => name.toLowerCase().endsWith('.gguf')).sort()[0];
  return first ? nodeBuiltin('node:path', FEATURE).join(dir, first) : undefined;
}
