import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';

/** Where a requested path lands: a real absolute path inside the root, or why it was refused. */
export type ResolvedPath =
  | { ok: true; path: string; relative: string; exists: boolean }
  | { ok: false; reason: string };

/** Characters that look like `.`, `/` or `\` but are not: refused so no later normalisation can turn them into an escape. */
const LOOK_ALIKES = /[\u2024\u2044\u2215\u2216\u29f8\ufe52\ufe68\uff0e\uff0f\uff3c]/u;

/**
 * Resolves `requested` against `root` and refuses anything that would leave it: `..` segments,
 * absolute paths outside the root, symbolic links (anywhere on the path) whose target is outside,
 * siblings that merely share the root's name prefix (`/data-evil` for `/data`), dangling symbolic
 * links (a write through one could land anywhere), NUL bytes and Unicode look-alikes of `.`/`/`/`\`.
 * Never throws for a bad path; the refusal reason is written for the model to read.
 *
 * @example
 * const r = await resolveInRoot('/srv/data', 'reports/q1.csv');
 * if (!r.ok) return r.reason;
 */
export async function resolveInRoot(root: string, requested: string): Promise<ResolvedPath> {
  const refused = checkSyntax(requested);
  if (refused) return { ok: false, reason: refused };
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return { ok: false, reason: `The root folder ${root} does not exist.` };
  }
  const lexical = rebase(requested, path.resolve(root), realRoot);
  if (lexical === undefined) return { ok: false, reason: outside(requested) };
  return resolveReal(realRoot, lexical, requested);
}

/** True when `candidate` is `root` itself or below it (by path segments, never by string prefix). */
export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

function checkSyntax(requested: string): string | undefined {
  if (typeof requested !== 'string' || requested.length === 0) return 'The path is empty.';
  if (requested.includes('\0')) return 'The path contains a NUL byte.';
  if (LOOK_ALIKES.test(requested) || hasNormalisingSeparator(requested)) {
    return `The path "${requested}" contains look-alike characters for "." or "/"; use plain ASCII dots and slashes.`;
  }
  const segments = requested.split(/[\\/]+/);
  if (segments.includes('..')) return `The path "${requested}" contains "..": paths must stay inside the root folder.`;
  return undefined;
}

function hasNormalisingSeparator(requested: string): boolean {
  for (const char of requested) {
    if (char.charCodeAt(0) < 128) continue;
    if (/[./\\]/.test(char.normalize('NFKC'))) return true;
  }
  return false;
}

/** Puts the requested path under the real root; an absolute path may name the root by its lexical or real spelling. */
function rebase(requested: string, lexicalRoot: string, realRoot: string): string | undefined {
  if (!path.isAbsolute(requested)) return path.resolve(realRoot, requested);
  const target = path.resolve(requested);
  for (const base of [realRoot, lexicalRoot]) {
    if (isInside(base, target)) return path.join(realRoot, path.relative(base, target));
  }
  return undefined;
}

async function resolveReal(realRoot: string, lexical: string, requested: string, depth = 0): Promise<ResolvedPath> {
  if (depth > 16) return { ok: false, reason: `Too many symbolic links in "${requested}".` };
  const stats = await lstat(lexical).catch(() => undefined);
  if (stats) {
    const real = await realpath(lexical).catch(() => undefined);
    if (real === undefined) {
      return { ok: false, reason: `"${requested}" is a dangling symbolic link; refusing to follow it.` };
    }
    if (!isInside(realRoot, real)) return { ok: false, reason: outside(requested) };
    return { ok: true, path: real, relative: relativeName(realRoot, real), exists: true };
  }
  // Not there yet (a write or a move target): its nearest existing ancestor decides where it would land.
  const parent = path.dirname(lexical);
  if (parent === lexical) return { ok: false, reason: outside(requested) };
  const resolvedParent = await resolveReal(realRoot, parent, requested, depth + 1);
  if (!resolvedParent.ok) return resolvedParent;
  const real = path.join(resolvedParent.path, path.basename(lexical));
  if (!isInside(realRoot, real)) return { ok: false, reason: outside(requested) };
  return { ok: true, path: real, relative: relativeName(realRoot, real), exists: false };
}

function relativeName(realRoot: string, real: string): string {
  return path.relative(realRoot, real) || '.';
}

function outside(requested: string): string {
  return `The path "${requested}" is outside the root folder; use a path relative to the root.`;
}

/** `resolveInRoot` for tools: throws the refusal reason, which the executor turns into an observation. */
export async function resolveInRootOrThrow(root: string, requested: string): Promise<ResolvedPath & { ok: true }> {
  const resolved = await resolveInRoot(root, requested);
  if (!resolved.ok) throw new Error(resolved.reason);
  return resolved;
}
