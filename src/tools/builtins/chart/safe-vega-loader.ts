import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { resolveInRootOrThrow } from '../files/resolve-in-root.js';
import { formatBytes } from '../shared/format-bytes.js';

/** The parts of a Vega loader the runtime calls. */
export interface VegaLoader {
  load(uri: string, options?: unknown): Promise<string>;
  sanitize(uri: string, options?: unknown): Promise<{ href: string }>;
  http(uri: string, options?: unknown): Promise<string>;
  file(filename: string): Promise<string>;
  /** Why loads failed: Vega only logs a failed load and draws an empty chart, so the caller checks this. */
  readonly failures: string[];
}

const SCHEME = /^\s*(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * A Vega loader that reads only files inside `root` (paths relative to it, confined like the files tools)
 * and refuses everything else: http(s), `data:` and `file:` URLs, protocol-relative `//host` paths.
 * Make one per render: it records its failures.
 */
export function safeVegaLoader(root: string, maxBytes: number): VegaLoader {
  const failures: string[] = [];
  const refuse = (uri: string): never => {
    const reason = `Chart data must be inline values or a file inside the root; "${uri.slice(0, 80)}" is refused.`;
    failures.push(reason);
    throw new Error(reason);
  };
  const file = async (uri: string) => {
    try {
      return await readInRoot(uri);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (!failures.includes(reason)) failures.push(reason);
      throw error;
    }
  };
  const readInRoot = async (uri: string) => {
    if (SCHEME.test(uri)) refuse(uri);
    const resolved = await resolveInRootOrThrow(root, uri);
    if (!resolved.exists) throw new Error(`"${uri}" does not exist in the root folder.`);
    // The path is real: O_NOFOLLOW refuses a link swapped in since, O_NONBLOCK keeps a FIFO from blocking,
    // and the type is checked on the open handle.
    const handle = await open(resolved.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new Error(`"${uri}" is not a regular file.`);
      const { size } = info;
      if (size > maxBytes)
        throw new Error(`"${uri}" is ${formatBytes(size)}, over the ${formatBytes(maxBytes)} limit.`);
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  };
  return {
    load: (uri) => file(uri),
    sanitize: async (uri) => {
      if (SCHEME.test(uri)) refuse(uri);
      return { href: uri };
    },
    http: async (uri) => refuse(uri),
    file,
    failures,
  };
}

/** Finds a string in a model-given spec that points outside (a URL with a scheme, `data:`), if any. */
export function findExternalReference(spec: unknown, key = ''): string | undefined {
  if (typeof spec === 'string') return key !== '$schema' && SCHEME.test(spec) ? spec : undefined;
  if (Array.isArray(spec)) {
    for (const item of spec) {
      const found = findExternalReference(item, key);
      if (found) return found;
    }
    return undefined;
  }
  if (spec && typeof spec === 'object') {
    for (const [k, value] of Object.entries(spec)) {
      const found = findExternalReference(value, k);
      if (found) return found;
    }
  }
  return undefined;
}
