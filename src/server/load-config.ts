import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { ConfigError, errorMessage } from '../core/index.js';
import type { ThinkflowConfig } from './define-config.js';

/** Loads `thinkflow.config.ts` (or .js/.mjs) and checks it names at least one agent. */
export async function loadConfig(path = 'thinkflow.config.ts'): Promise<ThinkflowConfig> {
  const file = resolve(path);
  if (!existsSync(file)) {
    throw new ConfigError({
      message: `No config file at ${file}. Create thinkflow.config.ts exporting defineConfig({ agents: { ... } }), or pass --config PATH.`,
    });
  }
  let module: { default?: unknown };
  try {
    module = await tsImport(pathToFileURL(file).href, import.meta.url);
  } catch (error) {
    throw new ConfigError({ message: `Could not load ${file}: ${errorMessage(error)}`, cause: error });
  }
  const config = (module.default ?? module) as Partial<ThinkflowConfig>;
  if (!config.agents || typeof config.agents !== 'object' || Object.keys(config.agents).length === 0) {
    throw new ConfigError({
      message: `${file} must export default defineConfig({ agents: { name: agentOrFactory } }) with at least one agent.`,
    });
  }
  return config as ThinkflowConfig;
}
