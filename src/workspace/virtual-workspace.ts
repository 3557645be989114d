import type { Bash, InMemoryFs } from 'just-bash';
import { importOptional } from '../core/index.js';
import { AGENT_KIT } from './agent-kit.js';
import { outputCollector } from './cut-output.js';
import { globPattern } from './glob-pattern.js';
import { type VirtualSnapshots, virtualSnapshots } from './virtual-snapshots.js';
import {
  type ExecOptions,
  type ExecResult,
  resolveLimits,
  type Workspace,
  type WorkspaceEntry,
  type WorkspaceLimits,
  type WorkspaceStat,
} from './workspace.js';
import { provideWorkspaceKit } from './workspace-kit.js';
import { missingError, outsideError, relativePath, underRoot, WorkspacePathError } from './workspace-path.js';

/** Options of `virtualWorkspace`. */
export interface VirtualWorkspaceOptions {
  /** Files to start with: relative path → text or bytes. */
  files?: Record<string, string | Uint8Array>;
  limits?: WorkspaceLimits;
  /** Variables every command sees. Nothing of the host's environment is ever visible. */
  env?: Record<string, string>;
  /**
   * The `just-bash` module, for runtimes where thinkflow cannot import a package by name (a browser
   * bundle, a Worker): `virtualWorkspace({ justBash: await import('just-bash') })`.
   */
  justBash?: typeof import('just-bash');
}

/** Where the workspace sits in the virtual file system, and the shell's working folder. */
export const VIRTUAL_ROOT = '/workspace';

/**
 * A workspace in memory: bash and its coreutils (npm `just-bash`, an optional peer) over an in-memory
 * file system. No host file, process or network is reachable, and it runs on Node, Bun, Deno, Workers
 * and browsers. Snapshots share unchanged file bodies with the live files (copy on write).
 *
 * @example
 * const ws = await virtualWorkspace({ files: { '销售.csv': '月份,金额\n1月,100\n' } });
 * (await ws.exec('wc -l 销售.csv')).stdout; // '2 销售.csv\n'
 */
export async function virtualWorkspace(options: VirtualWorkspaceOptions = {}): Promise<Workspace> {
  provideWorkspaceKit(AGENT_KIT);
  const limits = resolveLimits(options.limits);
  const lib = options.justBash ?? (await importOptional<typeof import('just-bash')>('workspace', 'just-bash'));
  const fs = new lib.InMemoryFs({}, { maxTotalBytes: limits.diskBytes });
  await fs.mkdir(VIRTUAL_ROOT, { recursive: true });
  for (const [path, data] of Object.entries(options.files ?? {})) {
    await writeInto(fs, underRoot(VIRTUAL_ROOT, relativePath(path)), data);
  }
  const bash = new lib.Bash({
    fs,
    cwd: VIRTUAL_ROOT,
    env: { HOME: VIRTUAL_ROOT, ...options.env },
    executionLimits: {
      // just-bash stops a script whose output passes this; ours cuts what the model sees much earlier.
      maxOutputSize: Math.max(limits.outputBytes * 16, 1024 * 1024),
      maxExecutionTimeMs: limits.timeoutMs,
      maxFileSystemBytes: limits.diskBytes,
    },
  });
  const at = (path: string) => confined(fs, path);
  const snapshots: VirtualSnapshots = virtualSnapshots(fs, VIRTUAL_ROOT);
  return {
    kind: 'virtual',
    limits,
    exec: (command, execOptions) => execIn(bash, command, execOptions ?? {}, limits),
    readFile: async (path) => fs.readFile(await existing(fs, path)),
    writeFile: async (path, data) => writeInto(fs, await at(path), data),
    list: async (path = '') => listIn(fs, await existing(fs, path)),
    glob: async (pattern) => {
      const regex = globPattern(pattern);
      return (await snapshots.files()).filter((path) => regex.test(path));
    },
    stat: async (path) => statIn(fs, await existing(fs, path)),
    remove: async (path) => {
      const target = await existing(fs, path);
      if (target === VIRTUAL_ROOT)
        throw new WorkspacePathError(path, 'is the workspace root; remove what is in it instead');
      await fs.rm(target, { recursive: true, force: true });
    },
    snapshot: async () => snapshots.take(),
    restore: async (id) => snapshots.restore(id),
    diff: async (fromId, toId) => snapshots.diff(fromId, toId),
    snapshotFile: async (id, path) => snapshots.file(id, relativePath(path)),
    dispose: async () => snapshots.clear(),
  };
}

async function execIn(
  bash: Bash,
  command: string,
  options: ExecOptions,
  limits: Required<WorkspaceLimits>,
): Promise<ExecResult> {
  const cwd = underRoot(VIRTUAL_ROOT, relativePath(options.cwd ?? ''));
  const timeoutMs = Math.min(options.timeoutMs ?? limits.timeoutMs, limits.timeoutMs);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const result = await bash.exec(command, {
      cwd,
      env: options.env,
      stdin: options.stdin,
      signal: controller.signal,
      rawScript: true,
    });
    const stdout = outputCollector(limits.outputBytes);
    const stderr = outputCollector(limits.outputBytes);
    stdout.push(result.stdout);
    stderr.push(result.stderr);
    if (controller.signal.aborted) {
      stderr.push(`\n[killed: the command ran over its time limit of ${timeoutMs} ms (命令超时)]\n`);
      return { stdout: stdout.text(), stderr: stderr.text(), exitCode: 124, limit: 'time' };
    }
    const stopped = result.exitCode !== 0 && /total output size exceeded/.test(result.stderr);
    if (stopped) stderr.push('\n[killed: the command printed more than the output limit (输出过多，命令已终止)]\n');
    const limit = stdout.cut || stderr.cut || stopped ? ('output' as const) : undefined;
    return { stdout: stdout.text(), stderr: stderr.text(), exitCode: result.exitCode, ...(limit ? { limit } : {}) };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** The absolute virtual path of `path`, refused when it (or a link in it) leads out of the root. */
async function confined(fs: InMemoryFs, path: string): Promise<string> {
  const target = underRoot(VIRTUAL_ROOT, relativePath(path));
  // The deepest part that exists decides where the path really goes.
  let probe = target;
  while (!(await fs.exists(probe)) && probe !== VIRTUAL_ROOT) {
    const parent = probe.slice(0, probe.lastIndexOf('/'));
    if ((await isLink(fs, probe)) || parent === '') throw outsideError(path);
    probe = parent;
  }
  const real = await fs.realpath(probe);
  if (real !== VIRTUAL_ROOT && !real.startsWith(`${VIRTUAL_ROOT}/`)) throw outsideError(path);
  return target;
}

async function isLink(fs: InMemoryFs, path: string): Promise<boolean> {
  try {
    return (await fs.lstat(path)).isSymbolicLink;
  } catch {
    return false;
  }
}

async function existing(fs: InMemoryFs, path: string): Promise<string> {
  const target = await confined(fs, path);
  if (!(await fs.exists(target))) throw missingError(path);
  return target;
}

async function writeInto(fs: InMemoryFs, target: string, data: string | Uint8Array): Promise<void> {
  await fs.mkdir(target.slice(0, target.lastIndexOf('/')) || '/', { recursive: true });
  // A link at the path is replaced, never written through.
  if (await isLink(fs, target)) await fs.rm(target);
  await fs.writeFile(target, data);
}

async function listIn(fs: InMemoryFs, dir: string): Promise<WorkspaceEntry[]> {
  const names = (await fs.readdir(dir)).sort();
  return Promise.all(
    names.map(async (name) => {
      const stat = await statIn(fs, `${dir}/${name}`);
      return { name, path: stat.path, type: stat.type, size: stat.size };
    }),
  );
}

async function statIn(fs: InMemoryFs, target: string): Promise<WorkspaceStat> {
  const stat = await fs.lstat(target);
  const type = stat.isSymbolicLink ? 'symlink' : stat.isDirectory ? 'directory' : 'file';
  return { path: target.slice(VIRTUAL_ROOT.length + 1), type, size: stat.size, mtimeMs: stat.mtime.getTime() };
}
