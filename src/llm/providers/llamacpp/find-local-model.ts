import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { thinkflowHome } from '../../thinkflow-home.js';

/** Where `thinkflow models pull` puts GGUF files: `~/.thinkflow/models` (or `$THINKFLOW_HOME/models`). */
export function modelsDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(thinkflowHome(env), 'models');
}

/** The path of the first `*.gguf` file (by name) in the models folder, or undefined when there is none. */
export function findLocalModel(dir: string = modelsDir()): string | undefined {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  const first = names.filter((name) => name.toLowerCase().endsWith('.gguf')).sort()[0];
  return first ? join(dir, first) : undefined;
}
