import { ConfigError, nodeBuiltin } from '../core/index.js';
import { AGENT_KIT } from './agent-kit.js';
import type { BwrapPlan } from './sandbox-args.js';
import { runBwrap } from './sandbox-exec.js';
import { hardLinksInside, sandboxFiles, walkFiles } from './sandbox-files.js';
import { type NetworkProxy, type SandboxNetwork, startNetworkProxy } from './sandbox-network.js';
import { sandboxSnapshots } from './sandbox-snapshots.js';
import { type ExecOptions, type ExecResult, resolveLimits, type Workspace, type WorkspaceLimits } from './workspace.js';
import { provideWorkspaceKit } from './workspace-kit.js';
import { relativePath } from './workspace-path.js';

const FEATURE = 'The sandbox workspace';

/** Options of `sandboxWorkspace`. */
export interface SandboxWorkspaceOptions {
  /** The host folder the workspace is: created if missing, the only host path a command can write. */
  dir: string;
  /** Hosts commands may reach through the workspace's proxy. Default: no network at all. */
  network?: SandboxNetwork;
  /** The only variables commands see (beside PATH, HOME, LANG, TMPDIR, TERM). The host's never appear. */
  env?: Record<string, string>;
  limits?: WorkspaceLimits;
  /** Where snapshots are kept. Default: `.<name>.snapshots` beside `dir`, out of the sandbox's sight. */
  snapshotDir?: string;
}

// The user a root host runs sandboxes as, so that the process limit binds (root's own is never enforced).
const NOBODY = { uid: 65534, gid: 65534 };

/**
 * A workspace of real processes under bubblewrap (Linux): commands run in `/workspace`, bound from
 * `dir`, with every namespace unshared, no network (or a proxy to named hosts), an empty environment,
 * read-only system folders and nothing else of the host, and limits on time, memory, processes,
 * output and disk. Snapshots are copies kept beside the folder, so fork and rewind work across restarts.
 *
 * @example
 * const ws = await sandboxWorkspace({ dir: './work', limits: { timeoutMs: 30_000 } });
 * await ws.exec('python3 -c "print(1 + 1)"');
 */
export async function sandboxWorkspace(options: SandboxWorkspaceOptions): Promise<Workspace> {
  provideWorkspaceKit(AGENT_KIT);
  assertSandboxAvailable();
  const limits = resolveLimits(options.limits);
  const { mkdirSync, realpathSync } = nodeBuiltin('node:fs', FEATURE);
  const path = nodeBuiltin('node:path', FEATURE);
  const absolute = path.resolve(options.dir);
  mkdirSync(absolute, { recursive: true });
  const root = realpathSync(absolute);
  const owner = process.getuid?.() === 0 ? NOBODY : undefined;
  prepareFolder(root, owner);
  const files = sandboxFiles(root, owner);
  const store = options.snapshotDir ?? path.join(path.dirname(root), `.${path.basename(root)}.snapshots`);
  const snapshots = sandboxSnapshots(root, path.resolve(store), owner);
  const proxy: NetworkProxy | undefined = options.network?.allow.length
    ? await startNetworkProxy(options.network, owner)
    : undefined;
  const hostLinks = systemLinks();
  const exec = async (command: string, execOptions: ExecOptions = {}): Promise<ExecResult> => {
    const cwd = relativePath(execOptions.cwd ?? '');
    files.resolve(cwd);
    const plan: BwrapPlan = {
      dir: root,
      cwd,
      env: { ...options.env, ...execOptions.env },
      limits,
      hostLinks,
      command,
      ...(proxy ? { proxySocket: proxy.socketPath } : {}),
    };
    const timeoutMs = Math.min(execOptions.timeoutMs ?? limits.timeoutMs, limits.timeoutMs);
    const result = await runBwrap(plan, { ...owner, timeoutMs, stdin: execOptions.stdin, signal: execOptions.signal });
    return checkDisk(result, root, limits.diskBytes);
  };
  return {
    kind: 'sandbox',
    limits,
    exec,
    readFile: (p) => files.readFile(p),
    writeFile: async (p, data) => {
      const size = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
      if (diskUsage(root) + size > limits.diskBytes) {
        throw new Error(
          `Writing ${size} bytes would take the workspace over its disk limit of ${limits.diskBytes} bytes (超过磁盘上限).`,
        );
      }
      await files.writeFile(p, data);
    },
    list: (p = '') => files.list(p),
    glob: (pattern) => files.glob(pattern),
    stat: (p) => files.stat(p),
    remove: (p) => files.remove(p),
    snapshot: () => snapshots.take(),
    restore: (id) => snapshots.restore(id),
    diff: (from, to) => snapshots.diff(from, to),
    snapshotFile: (id, p) => snapshots.file(id, relativePath(p)),
    dispose: async () => proxy?.close(),
  };
}

/** A ConfigError naming the fix when this machine cannot run the sandbox. */
function assertSandboxAvailable(): void {
  if (process.platform === 'darwin') {
    throw new ConfigError({
      message:
        'sandboxWorkspace runs on Linux (bubblewrap). On macOS, use virtualWorkspace(), or run thinkflow in a Linux VM or container; docs/workspace.md shows the sandbox-exec profile the macOS backend will use.',
    });
  }
  if (process.platform !== 'linux') {
    throw new ConfigError({
      message: `sandboxWorkspace needs Linux with bubblewrap; this is ${process.platform}. Use virtualWorkspace() instead.`,
    });
  }
  const probe = nodeBuiltin('node:child_process', FEATURE).spawnSync('bwrap', ['--version']);
  if (probe.error || probe.status !== 0) {
    throw new ConfigError({
      message: 'sandboxWorkspace needs bubblewrap. Install it with: apt-get install bubblewrap socat ripgrep',
      cause: probe.error,
    });
  }
}

/** /bin, /lib and friends: a link into /usr on a usr-merged host (recreated as such), else bound read-only. */
function systemLinks(): Record<string, string | undefined> {
  const { lstatSync, readlinkSync, existsSync } = nodeBuiltin('node:fs', FEATURE);
  const links: Record<string, string | undefined> = {};
  for (const dir of ['/bin', '/sbin', '/lib', '/lib64', '/lib32', '/libx32']) {
    if (!existsSync(dir)) continue;
    links[dir] = lstatSync(dir).isSymbolicLink() ? readlinkSync(dir) : undefined;
  }
  return links;
}

/**
 * Readies the folder: a hard link shared with a file outside it is replaced by a copy (a command could
 * otherwise write through it), and on a root host every entry is handed to the sandbox's user.
 */
function prepareFolder(root: string, owner?: { uid: number; gid: number }): void {
  const fs = nodeBuiltin('node:fs', FEATURE);
  for (const path of walkFiles(root)) {
    const target = `${root}/${path}`;
    if (!hardLinksInside(root, target)) {
      fs.copyFileSync(target, `${target}.thinkflow-copy`);
      fs.renameSync(`${target}.thinkflow-copy`, target);
    }
  }
  if (!owner) return;
  assertSearchable(root);
  const chown = (at: string) => {
    fs.lchownSync(at, owner.uid, owner.gid);
    if (fs.lstatSync(at).isDirectory()) for (const name of fs.readdirSync(at)) chown(`${at}/${name}`);
  };
  chown(root);
}

/** On a root host the sandbox runs as `nobody`, who must be able to reach the folder. */
function assertSearchable(root: string): void {
  const { statSync } = nodeBuiltin('node:fs', FEATURE);
  for (let at = root.slice(0, root.lastIndexOf('/')); at !== ''; at = at.slice(0, at.lastIndexOf('/'))) {
    if ((statSync(at).mode & 0o001) === 0) {
      throw new ConfigError({
        message: `sandboxWorkspace runs commands as the user nobody when thinkflow runs as root, and nobody cannot reach ${root}: ${at} is not searchable by others. Run: chmod o+x ${at} (or put the workspace elsewhere).`,
      });
    }
  }
}

/** Bytes the folder's files take. */
function diskUsage(root: string): number {
  const { lstatSync } = nodeBuiltin('node:fs', FEATURE);
  let total = 0;
  for (const path of walkFiles(root)) total += lstatSync(`${root}/${path}`).size;
  return total;
}

/** Marks a result whose command left the folder over its disk limit. */
function checkDisk(result: ExecResult, root: string, diskBytes: number): ExecResult {
  const used = diskUsage(root);
  if (used <= diskBytes) return result;
  return {
    ...result,
    exitCode: result.exitCode === 0 ? 1 : result.exitCode,
    stderr: `${result.stderr}\n[the workspace now holds ${used} bytes, over its disk limit of ${diskBytes}; remove files (超过磁盘上限，请删除文件)]\n`,
    limit: 'disk',
  };
}
