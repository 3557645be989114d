import { nodeBuiltin } from '../core/index.js';
import type { SnapshotStore, WorkspaceDiff } from './workspace.js';

const FEATURE = 'The sandbox workspace';
const fs = () => nodeBuiltin('node:fs', FEATURE);

/** One path of a snapshot. A file records the live file's identity when it was taken, to link it next time. */
type Entry =
  | { type: 'directory'; mode: number }
  | { type: 'symlink'; target: string }
  | { type: 'file'; mode: number; size: number; live: string };
type Manifest = Record<string, Entry>;

/** The snapshots of a sandbox's folder, kept as folders of files under `store`. */
export type SandboxSnapshots = SnapshotStore;

/**
 * Snapshots as copies that never share an inode with the live folder: a command in the sandbox can write
 * into a file in place (`>>`), so a snapshot that hard-linked the live file would change with it. A file
 * unchanged since the last snapshot (same inode, size and ctime, which no process can set back) is
 * hard-linked from that snapshot's copy instead of copied again, so a snapshot after one change costs a
 * walk, one copy and links. Restore copies back. Each snapshot is `store/<id>/` with a `manifest.json`,
 * so they outlive the process: a resumed run restores what its last finished call left.
 */
export function sandboxSnapshots(root: string, store: string, owner?: { uid: number; gid: number }): SandboxSnapshots {
  const { mkdirSync, writeFileSync, readFileSync, existsSync } = fs();
  mkdirSync(store, { recursive: true, mode: 0o700 });
  // The last snapshot taken or restored: its manifest, to link the files unchanged since.
  let base: { id: string; manifest: Manifest } | undefined;
  const manifestOf = (id: string): Manifest => {
    if (!/^[\w-]+$/.test(id) || !existsSync(`${store}/${id}/manifest.json`)) {
      throw new Error(`No snapshot ${JSON.stringify(id)} in this workspace's store ${store}.`);
    }
    return JSON.parse(readFileSync(`${store}/${id}/manifest.json`, 'utf8')) as Manifest;
  };
  return {
    async take() {
      const id = `s${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 8)}`;
      const files = `${store}/${id}/files`;
      mkdirSync(files, { recursive: true });
      const manifest = copyTree(root, files, base && { dir: `${store}/${base.id}/files`, manifest: base.manifest });
      writeFileSync(`${store}/${id}/manifest.json`, JSON.stringify(manifest));
      base = { id, manifest };
      return id;
    },
    async restore(id) {
      const manifest = manifestOf(id);
      for (const name of fs().readdirSync(root)) fs().rmSync(`${root}/${name}`, { recursive: true, force: true });
      base = { id, manifest: restoreTree(`${store}/${id}/files`, root, manifest, owner) };
    },
    async diff(fromId, toId) {
      const from = manifestOf(fromId);
      const fromDir = `${store}/${fromId}/files`;
      if (toId !== undefined) return diffManifests(from, fromDir, manifestOf(toId), `${store}/${toId}/files`);
      return diffManifests(from, fromDir, readManifest(root), root);
    },
    async file(id, path) {
      const entry = manifestOf(id)[path];
      return entry?.type === 'file' ? new Uint8Array(readFileSync(`${store}/${id}/files/${path}`)) : undefined;
    },
  };
}

/** A file's identity on the host: the same inode, size and ctime mean the same contents. */
function identity(stat: import('node:fs').Stats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.ctimeMs}`;
}

function readManifest(root: string): Manifest {
  const manifest: Manifest = {};
  const walk = (dir: string, prefix: string) => {
    for (const name of fs().readdirSync(dir).sort()) {
      const path = `${dir}/${name}`;
      const relative = prefix ? `${prefix}/${name}` : name;
      const stat = fs().lstatSync(path);
      if (stat.isDirectory()) {
        manifest[relative] = { type: 'directory', mode: stat.mode & 0o7777 };
        walk(path, relative);
      } else if (stat.isSymbolicLink()) manifest[relative] = { type: 'symlink', target: fs().readlinkSync(path) };
      else if (stat.isFile())
        manifest[relative] = { type: 'file', mode: stat.mode & 0o7777, size: stat.size, live: identity(stat) };
    }
  };
  walk(root, '');
  return manifest;
}

function copyTree(root: string, into: string, base?: { dir: string; manifest: Manifest }): Manifest {
  const { linkSync, copyFileSync, mkdirSync, symlinkSync, constants } = fs();
  const manifest = readManifest(root);
  for (const [path, entry] of Object.entries(manifest)) {
    const to = `${into}/${path}`;
    if (entry.type === 'directory') mkdirSync(to, { recursive: true });
    else if (entry.type === 'symlink') symlinkSync(entry.target, to);
    else {
      const before = base?.manifest[path];
      if (before?.type === 'file' && before.live === entry.live) linkSync(`${base?.dir}/${path}`, to);
      else copyFileSync(`${root}/${path}`, to, constants.COPYFILE_FICLONE);
    }
  }
  return manifest;
}

/** Copies a snapshot back; returns its manifest with the restored files' new identities. */
function restoreTree(from: string, root: string, manifest: Manifest, owner?: { uid: number; gid: number }): Manifest {
  const { copyFileSync, mkdirSync, symlinkSync, chmodSync, lstatSync, chownSync, lchownSync, constants } = fs();
  const restored: Manifest = {};
  for (const [path, entry] of Object.entries(manifest)) {
    const to = `${root}/${path}`;
    if (entry.type === 'directory') mkdirSync(to, { recursive: true, mode: entry.mode });
    else if (entry.type === 'symlink') symlinkSync(entry.target, to);
    else {
      copyFileSync(`${from}/${path}`, to, constants.COPYFILE_FICLONE);
      chmodSync(to, entry.mode);
    }
    if (owner) (entry.type === 'symlink' ? lchownSync : chownSync)(to, owner.uid, owner.gid);
    restored[path] = entry.type === 'file' ? { ...entry, live: identity(lstatSync(to)) } : entry;
  }
  return restored;
}

function diffManifests(from: Manifest, fromDir: string, to: Manifest, toDir: string): WorkspaceDiff {
  const diff: WorkspaceDiff = { added: [], modified: [], removed: [] };
  for (const [path, entry] of Object.entries(to)) {
    if (entry.type === 'directory') continue;
    const before = from[path];
    if (!before || before.type === 'directory') diff.added.push(path);
    else if (!sameEntry(before, `${fromDir}/${path}`, entry, `${toDir}/${path}`)) diff.modified.push(path);
  }
  for (const [path, entry] of Object.entries(from)) {
    if (entry.type !== 'directory' && !(path in to)) diff.removed.push(path);
  }
  return diff;
}

function sameEntry(a: Entry, aPath: string, b: Entry, bPath: string): boolean {
  if (a.type === 'symlink' || b.type === 'symlink') {
    return a.type === 'symlink' && b.type === 'symlink' && a.target === b.target;
  }
  if (a.type !== 'file' || b.type !== 'file' || a.size !== b.size) return false;
  // The live file a snapshot copied, unchanged since (same inode, size and ctime): no need to read it.
  if (a.live === b.live) return true;
  const { statSync, readFileSync } = fs();
  const [sa, sb] = [statSync(aPath), statSync(bPath)];
  if (sa.ino === sb.ino && sa.dev === sb.dev) return true;
  return readFileSync(aPath).equals(readFileSync(bPath));
}
