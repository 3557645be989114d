import { nodeBuiltin } from '../core/index.js';
import { globPattern } from './glob-pattern.js';
import type { WorkspaceEntry, WorkspaceStat } from './workspace.js';
import { missingError, outsideError, relativePath, WorkspacePathError } from './workspace-path.js';

const FEATURE = 'The sandbox workspace';
const fs = () => nodeBuiltin('node:fs', FEATURE);

/**
 * The host side of a sandbox's files: every path checked against the root (its real path), a link that
 * leads out refused, a write that replaces the file rather than writing through a link into it.
 */
export interface SandboxFiles {
  readonly root: string;
  /** The host path of a relative path that stays in the root (it need not exist). */
  resolve(path: string): string;
  readFile(path: string): Promise<string>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  list(path: string): Promise<WorkspaceEntry[]>;
  glob(pattern: string): Promise<string[]>;
  stat(path: string): Promise<WorkspaceStat>;
  remove(path: string): Promise<void>;
}

/** `root` is the workspace folder's real path; `owner` the uid and gid files the host writes get. */
export function sandboxFiles(root: string, owner?: { uid: number; gid: number }): SandboxFiles {
  const { realpathSync, lstatSync, existsSync } = fs();
  const inside = (real: string) => real === root || real.startsWith(`${root}/`);
  const resolve = (path: string): string => {
    const relative = relativePath(path);
    const target = relative === '' ? root : `${root}/${relative}`;
    // The deepest part that exists decides where the path goes; a dangling link leads nowhere we allow.
    let probe = target;
    while (!existsSync(probe)) {
      if (isLink(probe)) throw outsideError(path);
      probe = probe.slice(0, probe.lastIndexOf('/'));
    }
    if (!inside(realpathSync(probe))) throw outsideError(path);
    return target;
  };
  const existing = (path: string): string => {
    const target = resolve(path);
    if (!existsSync(target)) throw missingError(path);
    return target;
  };
  const statOf = (target: string): WorkspaceStat => {
    const stat = lstatSync(target);
    const type = stat.isSymbolicLink() ? 'symlink' : stat.isDirectory() ? 'directory' : 'file';
    return { path: target.slice(root.length + 1), type, size: stat.size, mtimeMs: stat.mtimeMs };
  };
  return {
    root,
    resolve,
    async readFile(path) {
      const target = existing(path);
      if (!hardLinksInside(root, target)) throw hardLinkError(path);
      return fs().promises.readFile(target, 'utf8');
    },
    async writeFile(path, data) {
      const target = resolve(path);
      const { dirname } = nodeBuiltin('node:path', FEATURE);
      await fs().promises.mkdir(dirname(target), { recursive: true });
      if (owner) chownUp(root, dirname(target), owner);
      // A fresh file renamed over the old: a link at the path, or a hard link shared with a file elsewhere
      // (a snapshot's, the host's), is replaced, never written through.
      const temporary = `${dirname(target)}/.thinkflow-${crypto.randomUUID()}`;
      await fs().promises.writeFile(temporary, data, { flag: 'wx' });
      if (owner) fs().chownSync(temporary, owner.uid, owner.gid);
      await fs().promises.rename(temporary, target);
    },
    async list(path) {
      const dir = existing(path);
      if (!lstatSync(dir).isDirectory()) throw new WorkspacePathError(path, 'is not a folder (不是文件夹)');
      const names = (await fs().promises.readdir(dir)).sort();
      return names.map((name) => {
        const stat = statOf(`${dir}/${name}`);
        return { name, path: stat.path, type: stat.type, size: stat.size };
      });
    },
    async glob(pattern) {
      const regex = globPattern(pattern);
      return walkFiles(root).filter((path) => regex.test(path));
    },
    async stat(path) {
      return statOf(existing(path));
    },
    async remove(path) {
      const target = existing(path);
      if (target === root) throw new WorkspacePathError(path, 'is the workspace root; remove what is in it instead');
      await fs().promises.rm(target, { recursive: true, force: true });
    },
  };
}

function isLink(path: string): boolean {
  try {
    return fs().lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function hardLinkError(path: string): WorkspacePathError {
  return new WorkspacePathError(path, 'is a hard link to a file outside the workspace (指向工作区外的硬链接)');
}

/** True when every hard link of a regular file is in the root (a file with one link always is). */
export function hardLinksInside(root: string, target: string): boolean {
  const stat = fs().statSync(target);
  if (!stat.isFile() || stat.nlink <= 1) return true;
  let found = 0;
  for (const path of walkFiles(root)) {
    const other = fs().lstatSync(`${root}/${path}`);
    if (other.ino === stat.ino && other.dev === stat.dev) found++;
  }
  return found >= stat.nlink;
}

/** Every regular file and link under `root`, relative and sorted; folders are walked, not listed. */
export function walkFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs().readdirSync(dir, { withFileTypes: true })) {
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(`${dir}/${entry.name}`, relative);
      else out.push(relative);
    }
  };
  walk(root, '');
  return out.sort();
}

/** Hands the folders the host made, from `dir` up to the root, to the sandbox's user. */
function chownUp(root: string, dir: string, owner: { uid: number; gid: number }): void {
  for (let at = dir; at.length >= root.length; at = at.slice(0, at.lastIndexOf('/'))) {
    fs().chownSync(at, owner.uid, owner.gid);
    if (at === root) break;
  }
}
