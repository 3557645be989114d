import type { InMemoryFs } from 'just-bash';
import type { SnapshotStore, WorkspaceDiff } from './workspace.js';

/** One path of a snapshot: a folder, a link's target, or a file's bytes (shared with the live file). */
type Entry =
  | { type: 'directory' }
  | { type: 'symlink'; target: string }
  | { type: 'file'; bytes: Uint8Array; mode: number };
type Tree = Map<string, Entry>;

/** The snapshots of a virtual workspace, and the walk of its files that they and `glob` share. */
export interface VirtualSnapshots extends SnapshotStore {
  /** The relative paths of the files now, sorted. */
  files(): Promise<string[]>;
  clear(): void;
}

/**
 * Snapshots as maps of path → entry. A file's bytes are the in-memory file system's own buffer: a
 * write replaces a file's buffer rather than changing it, so a snapshot costs a walk of the paths, not
 * a copy of the contents (copy on write), and a file unchanged across snapshots is one buffer.
 */
export function virtualSnapshots(fs: InMemoryFs, root: string): VirtualSnapshots {
  const trees = new Map<string, Tree>();
  let counter = 0;
  const read = () => readTree(fs, root);
  const get = (id: string) => {
    const tree = trees.get(id);
    if (!tree)
      throw new Error(`No snapshot ${JSON.stringify(id)} in this workspace (it was never taken, or disposed).`);
    return tree;
  };
  return {
    async take() {
      const id = `v${++counter}-${Math.random().toString(36).slice(2, 8)}`;
      trees.set(id, await read());
      return id;
    },
    async restore(id) {
      const tree = get(id);
      for (const name of await fs.readdir(root)) await fs.rm(`${root}/${name}`, { recursive: true, force: true });
      for (const [path, entry] of tree) {
        const at = `${root}/${path}`;
        if (entry.type === 'directory') await fs.mkdir(at, { recursive: true });
        else if (entry.type === 'symlink') await fs.symlink(entry.target, at);
        else {
          await fs.writeFile(at, entry.bytes);
          await fs.chmod(at, entry.mode);
        }
      }
    },
    async diff(fromId, toId) {
      return diffTrees(get(fromId), toId === undefined ? await read() : get(toId));
    },
    async file(id, path) {
      const entry = get(id).get(path);
      return entry?.type === 'file' ? entry.bytes : undefined;
    },
    async files() {
      const tree = await read();
      return [...tree].filter(([, entry]) => entry.type === 'file').map(([path]) => path);
    },
    clear: () => trees.clear(),
  };
}

async function readTree(fs: InMemoryFs, root: string): Promise<Tree> {
  const tree: Tree = new Map();
  const paths = fs
    .getAllPaths()
    .filter((path) => path.startsWith(`${root}/`))
    .sort();
  for (const path of paths) {
    const stat = await fs.lstat(path);
    const relative = path.slice(root.length + 1);
    if (stat.isSymbolicLink) tree.set(relative, { type: 'symlink', target: await fs.readlink(path) });
    else if (stat.isDirectory) tree.set(relative, { type: 'directory' });
    else tree.set(relative, { type: 'file', bytes: await fs.readFileBuffer(path), mode: stat.mode });
  }
  return tree;
}

/** What differs between two trees; folders count only by the files in them. */
export function diffTrees(from: Tree, to: Tree): WorkspaceDiff {
  const diff: WorkspaceDiff = { added: [], modified: [], removed: [] };
  for (const [path, entry] of to) {
    if (entry.type === 'directory') continue;
    const before = from.get(path);
    if (!before || before.type === 'directory') diff.added.push(path);
    else if (!sameEntry(before, entry)) diff.modified.push(path);
  }
  for (const [path, entry] of from) if (entry.type !== 'directory' && !to.has(path)) diff.removed.push(path);
  return diff;
}

function sameEntry(a: Entry, b: Entry): boolean {
  if (a.type === 'symlink' && b.type === 'symlink') return a.target === b.target;
  if (a.type === 'file' && b.type === 'file') return a.bytes === b.bytes || sameBytes(a.bytes, b.bytes);
  return false;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
