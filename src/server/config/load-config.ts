import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, errorMessage, requireDependency, withoutBom } from '../../core/index.js';
import { configFromData } from './config-from-data.js';
import type { ThinkflowConfig } from './define-config.js';
import { loadScorerModules } from './scorers-from-data.js';

const TYPESCRIPT = new Set(['.ts', '.mts', '.cts']);
const JAVASCRIPT = new Set(['.js', '.mjs', '.cjs']);
const DATA = new Set(['.json', '.yaml', '.yml']);

/** A config as `loadConfig` returns it: `agents` is always there (`{}` in a config of workflows alone). */
export type LoadedConfig = ThinkflowConfig & { agents: NonNullable<ThinkflowConfig['agents']> };

/**
 * Loads a config and checks it names at least one agent or workflow (a config of workflows alone serves
 * them; its `agents` comes back as `{}`). `.ts`/`.mts`/`.cts` load through jiti (no tsx
 * or build step), `.js`/`.mjs`/`.cjs` through Node itself, and `.json`/`.yaml` as data whose agents are
 * specs (`{ model, tools, instructions }`). Each works the same in an ESM and a CommonJS project.
 */
export async function loadConfig(path = 'thinkflow.config.ts'): Promise<LoadedConfig> {
  const file = resolve(path);
  if (!existsSync(file)) {
    throw new ConfigError({
      message: `No config file at ${file}. Create thinkflow.config.ts exporting defineConfig({ agents: { ... } }), or pass --config PATH.`,
    });
  }
  const ext = extname(file);
  if (!TYPESCRIPT.has(ext) && !JAVASCRIPT.has(ext) && !DATA.has(ext)) {
    throw new ConfigError({
      message: `${file}: a config is a .ts, .mts, .cts, .js, .mjs, .cjs, .json, .yaml or .yml file.`,
    });
  }
  let config: Partial<ThinkflowConfig>;
  try {
    if (DATA.has(ext)) {
      const read = configFromData(readData(file, ext), file);
      config = read.config;
      if (config.scoring) {
        await loadScorerModules(config.scoring, read.scorerModules, {
          root: dirname(file),
          file,
          importModule: importFile,
        });
      }
    } else config = await importModule(file);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError({ message: `Could not load ${file}: ${errorMessage(error)}`, cause: error });
  }
  return withServed(config, file);
}

/** The config with `agents` filled in, refusing one that is not an object or serves nothing. */
function withServed(config: Partial<ThinkflowConfig>, file: string): LoadedConfig {
  const named = (value: unknown, field: string): number => {
    if (value === undefined) return 0;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ConfigError({ message: `${file}: \`${field}\` must be an object of ${field} by name.` });
    }
    return Object.keys(value).length;
  };
  if (named(config.agents, 'agents') + named(config.workflows, 'workflows') === 0) {
    throw new ConfigError({
      message: `${file} serves nothing: export default defineConfig({ agents: { name: agentOrFactory } }) with at least one agent, or { workflows: { name: workflow } } with at least one workflow.`,
    });
  }
  return { ...config, agents: config.agents ?? {} };
}

async function importModule(file: string): Promise<Partial<ThinkflowConfig>> {
  const module = await importFile(file);
  // A CommonJS config (`module.exports = defineConfig(...)`) arrives as `default`, an ESM one too.
  return (module.default ?? module) as Partial<ThinkflowConfig>;
}

/** A module's exports, read as the config file's own import is (natively, else through jiti). */
async function importFile(file: string): Promise<{ default?: unknown } & Record<string, unknown>> {
  // A process that can already import TypeScript (under tsx, or Node's type stripping) imports it
  // natively; otherwise jiti transpiles the config file itself. Packages the config imports (thinkflow
  // included) load natively either way, so its Agent is the same class the server uses.
  const module =
    (await importNatively(file)) ??
    (await (async () => {
      const { createJiti } = await import('jiti');
      const jiti = createJiti(import.meta.url, { fsCache: false, moduleCache: false, nativeModules: ['thinkflow'] });
      return jiti.import<{ default?: unknown } & Record<string, unknown>>(file);
    })());
  return module;
}

/** Imports the file natively, or returns undefined when Node cannot import a TypeScript file as it runs. */
async function importNatively(file: string): Promise<{ default?: unknown } | undefined> {
  try {
    return await import(pathToFileURL(file).href);
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === 'ERR_UNKNOWN_FILE_EXTENSION') return undefined;
    throw error;
  }
}

function readData(file: string, ext: string): unknown {
  const text = withoutBom(readFileSync(file, 'utf8'));
  if (ext === '.json') return JSON.parse(text);
  return requireDependency<typeof import('yaml')>('yaml').parse(text);
}
