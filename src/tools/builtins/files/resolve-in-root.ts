import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';

/** Where a requested path lands: a real absolute path inside the root, or why it was refused. */
export type ResolvedPath =
  | { ok: true; path: string; relative: string; exists: boolean }
  | { ok: false; reason: string };

/** A path `resolveInRoot` accepted. */
export type InRoot = Extract<ResolvedPath, { ok: true }>;

/**
 * What the caller will do with the path, which decides how its last segment is treated:
 * - `read` (default): follow a symbolic link to its target; the root itself is allowed (list `.`).
 * - `write`: follow like `read`, but the root itself is refused (it cannot be written as a file).
 * - `entry`: the last segment is the entry itself, never followed (delete and move act on a link, not its
 *   target); only its folder is resolved to a real path, and the root itself is refused.
 */
export type PathPurpose = 'read' | 'write' | 'entry';

/** Options for `resolveInRoot`. */
export interface ResolveOptions {
  /** Default `read`. */
  purpose?: PathPurpose;
}

/** Characters that look like `.`, `/` or `\` but are not: refused so no later normalisation can turn them into an escape. */
const LOOK_ALIKES = /[\u2024\u2044\u2215\u2216\u29f8\ufe52\ufe68\uff0e\uff0f\uff3c]/u;

/**
 * Resolves `requested` against `root` and refuses anything that would leave it: `..` segments,
 * absolute paths outside the root, symbolic links (anywhere on the path) whose target is outside,
 * siblings that merely share the root's name prefix (`/data-evil` for `/data`), dangling symbolic
 * links (a write through one could land anywhere), NUL bytes and Unicode look-alikes of `.`/`/`/`\`.
 * The WHOLE path is judged, last segment included, before anything touches the disk; with purpose `write`
 * or `entry` the root itself is refused too. Never throws for a bad path; the refusal reason is written
 * for the model to read.
 *
 * @example
 * const r = await resolveInRoot('/srv/data', 'reports/q1.csv');
 * if (!r.ok) return r.reason;
 */
export async function resolveInRoot(
  root: string,
  requested: string,
  options: ResolveOptions = {},
): Promise<ResolvedPath> {
  const purpose = options.purpose ?? 'read';
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
  const resolved =
    purpose === 'entry'
      ? await resolveEntry(realRoot, lexical, requested)
      : await resolveReal(realRoot, lexical, requested);
  if (resolved.ok && purpose !== 'read' && resolved.path === realRoot) return { ok: false, reason: isRoot(requested) };
  return resolved;
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

/** The entry itself (a link is not followed): its folder must resolve inside the root, and the entry must not be the root. */
async function resolveEntry(realRoot: string, lexical: string, requested: string): Promise<ResolvedPath> {
  // `lexical` has no `..` (refused above) and is normalised, so its last segment is a real name, never `.` or `..`.
  if (lexical === realRoot) return { ok: false, reason: isRoot(requested) };
  const folder = await resolveReal(realRoot, path.dirname(lexical), requested);
  if (!folder.ok) return folder;
  const entry = path.join(folder.path, path.basename(lexical));
  if (!isInside(realRoot, entry) || entry === realRoot) return { ok: false, reason: outside(requested) };
  const exists = (await lstat(entry).catch(() => undefined)) !== undefined;
  return { ok: true, path: entry, relative: relativeName(realRoot, entry), exists };
}

function relativeName(realRoot: string, real: string): string {
  return path.relative(realRoot, real) || '.';
}

function outside(requested: string): string {
  return `The path "${requested}" is outside the root folder; use a path relative to the root.`;
}

function isRoot(requested: string): string {
  return `"${requested}" is the root folder itself; name a file or folder inside it.`;
}

/** `resolveInRoot` for tools: throws the refusal reason, which the executor turns into an observation. */
export async function resolveInRootOrThrow(
  root: string,
  requested: string,
  options: ResolveOptions = {},
): Promise<InRoot> {
  const resolved = await resolveInRoot(root, requested, options);
  if (!resolved.ok) throw new Error(resolved.reason);
  return resolved;
}

/**
 * Checks, right before a change, that the folder holding `resolved` still is the real folder it was
 * when the path was resolved: a folder swapped for a symbolic link in between (a race) is refused
 * instead of being written through.
 */
export async function confirmFolderUnchanged(resolved: { path: string }, requested: string): Promise<void> {
  const folder = path.dirname(resolved.path);
  const real = await realpath(folder).catch(() => undefined);
  if (real !== folder) throw new Error(`The folder of "${requested}" changed while it was being used; try again.`);
}
