import path from 'node:path';
import type { BuiltinOptions } from '../builtin-options.js';

/** The defaults every built-in kit shares, filled in once. */
export interface ResolvedBuiltinOptions {
  root: string;
  allowWrite: boolean;
  outDir: string;
  maxReadBytes: number;
  maxOutputChars: number;
  timeoutMs: number;
}

/** Fills in the shared defaults: root = cwd, outDir = `<root>/charts`, 1 MiB reads, 8000-character outputs, 10 s. */
export function resolveBuiltinOptions(options: BuiltinOptions = {}): ResolvedBuiltinOptions {
  const root = path.resolve(options.root ?? process.cwd());
  return {
    root,
    allowWrite: options.allowWrite ?? false,
    outDir: path.resolve(root, options.outDir ?? 'charts'),
    maxReadBytes: options.maxReadBytes ?? 1024 * 1024,
    maxOutputChars: options.maxOutputChars ?? 8000,
    timeoutMs: options.timeoutMs ?? 10_000,
  };
}
