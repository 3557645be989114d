import { ConfigError } from './errors.js';

/** The Node built-ins the core reaches for lazily, by name. */
interface NodeBuiltins {
  'node:async_hooks': typeof import('node:async_hooks');
  'node:child_process': typeof import('node:child_process');
  'node:dns': typeof import('node:dns');
  'node:fs': typeof import('node:fs');
  'node:module': typeof import('node:module');
  'node:net': typeof import('node:net');
  'node:os': typeof import('node:os');
  'node:path': typeof import('node:path');
  'node:url': typeof import('node:url');
  'node:vm': typeof import('node:vm');
}

type BuiltinLoader = { getBuiltinModule?: (id: string) => unknown; env?: Record<string, string | undefined> };

/**
 * A Node built-in module, or undefined where the runtime has none (a browser, a Worker without
 * `nodejs_compat`). It goes through `process.getBuiltinModule` (Node ≥ 20.16, Bun, Deno) rather than an
 * import, so the core's static import graph names no built-in and bundles for any platform; only the
 * few features that need a disk, a home folder or node:vm reach for one, when they run.
 */
export function maybeNodeBuiltin<K extends keyof NodeBuiltins>(name: K): NodeBuiltins[K] | undefined {
  const process = (globalThis as { process?: BuiltinLoader }).process;
  return process?.getBuiltinModule?.(name) as NodeBuiltins[K] | undefined;
}

/**
 * A Node built-in module for `feature`, or a `ConfigError` naming the runtimes that have it.
 *
 * @example
 * const { readFileSync } = nodeBuiltin('node:fs', 'Reading a trace file');
 */
export function nodeBuiltin<K extends keyof NodeBuiltins>(name: K, feature: string): NodeBuiltins[K] {
  const builtin = maybeNodeBuiltin(name);
  if (builtin) return builtin;
  throw new ConfigError({
    message: `${feature} needs ${name}, which this runtime does not have: run it on Node, Bun or Deno.`,
  });
}

/**
 * The environment variables, where the runtime has them (`process.env` on Node, Bun, Deno), else none: a
 * browser or a Worker passes its settings in options instead.
 */
export function processEnv(): Record<string, string | undefined> {
  return (globalThis as { process?: BuiltinLoader }).process?.env ?? {};
}

/** Writes a line to stderr where the runtime has one (Node, Bun, Deno), else to `console.error` (a browser, a Worker). */
export function writeStderr(line: string): void {
  const stderr = (globalThis as { process?: { stderr?: { write(text: string): unknown } } }).process?.stderr;
  if (stderr) stderr.write(line.endsWith('\n') ? line : `${line}\n`);
  else console.error(line.replace(/\n$/, ''));
}
