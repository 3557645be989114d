import { ConfigError, errorMessage } from './errors.js';
import { nodeBuiltin } from './node-builtin.js';

/** A feature whose packages are optional peer dependencies, installed by the apps that use it. */
export interface OptionalFeature {
  /** What needs the packages, as the start of a sentence: "The data tools". */
  readonly name: string;
  /** The verb that agrees with `name`: "need" or "needs". */
  readonly verb: 'need' | 'needs';
  /** Each package with the version range to install, as `npm install` takes it. */
  readonly packages: readonly string[];
}

const DUCKDB = '@duckdb/node-api@1.5.6-r.1';

/**
 * Every feature built on optional peers. package.json's `peerDependencies` lists the same packages
 * (a test checks they agree), and the install table in docs/install.md says the same.
 */
export const OPTIONAL_FEATURES = {
  llamaCpp: { name: 'Local GGUF models (llamacpp:)', verb: 'need', packages: ['node-llama-cpp@^3.21.1'] },
  data: { name: 'The data tools', verb: 'need', packages: [DUCKDB] },
  chart: {
    name: 'The chart tools',
    verb: 'need',
    packages: ['vega@^6.3.0', 'vega-lite@^6.4.3', 'vega-interpreter@^2.3.2', '@resvg/resvg-js@^2.6.2', DUCKDB],
  },
  queue: { name: 'Queue mode', verb: 'needs', packages: ['bullmq@^6.7.0', 'ioredis@^5.9.3'] },
  postgres: { name: 'The PostgreSQL stores', verb: 'need', packages: ['pg@^8.23.1'] },
  mcp: {
    name: 'MCP',
    verb: 'needs',
    packages: ['@modelcontextprotocol/sdk@^1.32.2', 'ajv@^8.20.0', 'ajv-formats@^3.0.1'],
  },
  otel: { name: 'The OpenTelemetry exporter', verb: 'needs', packages: ['@opentelemetry/api@^1.9.0'] },
  tokenizer: { name: 'Exact token counts', verb: 'need', packages: ['gpt-tokenizer@^4.0.0'] },
  code: { name: 'Code mode', verb: 'needs', packages: ['quickjs-emscripten@^0.32.0'] },
  codeTypes: { name: 'TypeScript in code mode', verb: 'needs', packages: ['esbuild@^0.28.2'] },
  html: { name: 'The http_get tool', verb: 'needs', packages: ['html-to-text@^10.0.1'] },
  search: { name: 'The search_documents tool', verb: 'needs', packages: ['minisearch@^7.2.0'] },
  // 1.15 and later call Promise.withResolvers on every invocation, which Node 20 lacks.
  restate: { name: 'The Restate engine', verb: 'needs', packages: ['@restatedev/restate-sdk@~1.14.5'] },
  dbos: { name: 'The DBOS engine', verb: 'needs', packages: ['@dbos-inc/dbos-sdk@^5.3.0'] },
  workspace: { name: 'The virtual workspace', verb: 'needs', packages: ['just-bash@^3.4.2'] },
} as const satisfies Record<string, OptionalFeature>;

/** A feature built on optional peers. */
export type OptionalFeatureId = keyof typeof OPTIONAL_FEATURES;

/** A package name without its version: `@duckdb/node-api@1.5.6-r.1` → `@duckdb/node-api`. */
export function packageName(spec: string): string {
  return spec.slice(0, spec.indexOf('@', 1) > 0 ? spec.indexOf('@', 1) : undefined);
}

/** The error for missing peers: which feature needs which packages, and the command that installs them. */
export function missingPeerError(feature: OptionalFeatureId, missing: readonly string[], cause?: unknown): ConfigError {
  const { name, verb, packages } = OPTIONAL_FEATURES[feature];
  const specs = packages.filter((spec) => missing.includes(packageName(spec)));
  const names = specs.map(packageName);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  return new ConfigError({
    message: `${name} ${verb} ${list}. Install ${names.length > 1 ? 'them' : 'it'} with: npm install ${specs.join(' ')}`,
    cause,
  });
}

/** True when `error` says that `name` itself (not something it imports) could not be found. */
function isNotFound(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') return false;
  const message = errorMessage(error);
  return message.includes(`'${name}'`) || message.includes(`"${name}"`) || message.includes(`'${name}/`);
}

// Peers load through variable specifiers, so bundlers and the static import graph never reach them:
// an app that does not use a feature bundles and loads none of its packages. The require function is
// made on first use, so a CommonJS bundle (where import.meta is empty) still loads this module.
let requirePeer: NodeJS.Require | undefined;
function peerRequire(feature: string): NodeJS.Require {
  // In a CommonJS bundle import.meta is empty: resolve from the bundle's own file instead.
  requirePeer ??= nodeBuiltin('node:module', feature).createRequire(import.meta.url ?? __filename);
  return requirePeer;
}

/**
 * Loads one of thinkflow's own (regular) dependencies on first use rather than at import, for packages
 * that take long to load and that most runs never need (mathjs, better-sqlite3, yaml).
 */
export function requireDependency<T>(name: string): T {
  return peerRequire(`Loading ${name}`)(name) as T;
}

// A subpath to resolve where the package has no root entry that `require.resolve` can find.
const PROBES: Record<string, string> = { '@modelcontextprotocol/sdk': '@modelcontextprotocol/sdk/server/index.js' };

/**
 * Checks, without loading anything, that every package `feature` needs is installed, and throws one
 * `ConfigError` naming all that are missing. Factories call it so a missing peer fails at setup
 * (`dataTools()`, `thinkflow run --tools data`), not in the middle of a run.
 */
export function assertPeers(feature: OptionalFeatureId): void {
  const missing: string[] = [];
  let cause: unknown;
  for (const spec of OPTIONAL_FEATURES[feature].packages) {
    const name = packageName(spec);
    try {
      peerRequire(OPTIONAL_FEATURES[feature].name).resolve(PROBES[name] ?? name);
    } catch (error) {
      if (!isNotFound(error, name)) throw error;
      missing.push(name);
      cause ??= error;
    }
  }
  if (missing.length > 0) throw missingPeerError(feature, missing, cause);
}

/**
 * Loads an optional peer synchronously (for CommonJS packages that constructors use: pg, ioredis,
 * bullmq). A missing package is a `ConfigError` naming the install command; any other failure
 * (a broken native build) is rethrown as it is.
 */
export function requireOptional<T>(feature: OptionalFeatureId, name: string, subpath = ''): T {
  try {
    return peerRequire(OPTIONAL_FEATURES[feature].name)(subpath ? `${name}/${subpath}` : name) as T;
  } catch (error) {
    if (isNotFound(error, name)) throw missingPeerError(feature, [name], error);
    throw error;
  }
}

/**
 * Loads an optional peer (or one of its subpaths) with `import()`. A missing package is a `ConfigError`
 * naming the feature and the install command.
 *
 * @example
 * const { DuckDBInstance } = await importOptional<typeof import('@duckdb/node-api')>('data', '@duckdb/node-api');
 */
export async function importOptional<T>(feature: OptionalFeatureId, name: string, subpath = ''): Promise<T> {
  const specifier = subpath ? `${name}/${subpath}` : name;
  try {
    return (await import(specifier)) as T;
  } catch (error) {
    if (isNotFound(error, name)) throw missingPeerError(feature, [name], error);
    throw error;
  }
}
