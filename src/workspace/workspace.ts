/**
 * The contract every workspace backend keeps: files and a shell for an agent, rooted at one folder.
 * Every path is relative to the workspace root; one that leaves it (`../`, an absolute path, a link
 * pointing out) is refused with a `WorkspacePathError`, never followed.
 */

/** Options for one command. */
export interface ExecOptions {
  /** The folder to run in, relative to the root (default: the root). */
  cwd?: string;
  /** Variables added to the workspace's own environment for this command. */
  env?: Record<string, string>;
  /** Wall time before the command (and everything it started) is killed. Default: the workspace's limit. */
  timeoutMs?: number;
  /** Text given to the command on standard input. */
  stdin?: string;
  /** Cancels the command: it is killed, as on a timeout. */
  signal?: AbortSignal;
}

/** What a command printed and how it ended. Output over the limit is cut and marked (`[... output cut: …]`). */
export interface ExecResult {
  stdout: string;
  stderr: string;
  /** The exit code; 124 when the wall time ran out, 137 when a limit killed it. */
  exitCode: number;
  /** Which limit stopped the command, if one did. */
  limit?: 'time' | 'output' | 'memory' | 'processes' | 'disk';
}

/** One entry of `list`. */
export interface WorkspaceEntry {
  name: string;
  /** Relative to the root, `/`-separated. */
  path: string;
  type: 'file' | 'directory' | 'symlink';
  size: number;
}

/** What `stat` says of a path. */
export interface WorkspaceStat {
  path: string;
  type: 'file' | 'directory' | 'symlink';
  size: number;
  /** Last modification, in ms since the epoch. */
  mtimeMs: number;
}

/** The files that differ between two snapshots (or a snapshot and now), each relative to the root. */
export interface WorkspaceDiff {
  added: string[];
  modified: string[];
  removed: string[];
}

/** Limits a workspace enforces, each with a default. */
export interface WorkspaceLimits {
  /** Wall time of one command. Default 60,000 ms. */
  timeoutMs?: number;
  /** Bytes of stdout (and, separately, stderr) kept from one command before it is cut. Default 1 MiB. */
  outputBytes?: number;
  /** Bytes all files in the workspace may take together. Default 1 GiB. */
  diskBytes?: number;
  /** Bytes of memory one command may map (sandbox). Default 2 GiB. */
  memoryBytes?: number;
  /** Processes one command may run at once (sandbox). Default 256. */
  processes?: number;
}

/** A backend's snapshots of its files: what `snapshot`, `restore`, `diff` and `snapshotFile` are made of. */
export interface SnapshotStore {
  take(): Promise<string>;
  restore(id: string): Promise<void>;
  diff(fromId: string, toId?: string): Promise<WorkspaceDiff>;
  /** One file's bytes at a snapshot; undefined when it was not there. */
  file(id: string, path: string): Promise<Uint8Array | undefined>;
}

/** Files and a shell, rooted at one folder. Build one with `virtualWorkspace` or `sandboxWorkspace`. */
export interface Workspace {
  /** `virtual` (in memory, every runtime) or `sandbox` (real processes under an OS sandbox). */
  readonly kind: 'virtual' | 'sandbox';
  /** The limits in force, defaults filled in. */
  readonly limits: Required<WorkspaceLimits>;
  /** Runs a bash script in the workspace. A failing command is an exit code, never a throw. */
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  /** A file's text (UTF-8). */
  readFile(path: string): Promise<string>;
  /** Writes a file, creating its folders. A write never changes a snapshot's copy. */
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  /** The entries of a folder (default: the root), sorted by name. */
  list(path?: string): Promise<WorkspaceEntry[]>;
  /** The files whose paths match a glob (`**` / `*` / `?` / `{a,b}`), sorted. */
  glob(pattern: string): Promise<string[]>;
  /** What a path is; a `WorkspacePathError` when it does not exist. */
  stat(path: string): Promise<WorkspaceStat>;
  /** Removes a file or a folder with its contents. */
  remove(path: string): Promise<void>;
  /** Records the files as they are now; returns an id `restore` and `diff` take. */
  snapshot(): Promise<string>;
  /** Puts the files back as they were at a snapshot. */
  restore(id: string): Promise<void>;
  /** What changed from one snapshot to another (default: to the files now). */
  diff(fromId: string, toId?: string): Promise<WorkspaceDiff>;
  /** A file's bytes as they were at a snapshot; undefined when it was not a file there. */
  snapshotFile(id: string, path: string): Promise<Uint8Array | undefined>;
  /** Stops what still runs and frees the workspace's resources (a sandbox's folder stays). */
  dispose(): Promise<void>;
}

/** Defaults of `WorkspaceLimits`. */
export const DEFAULT_LIMITS: Required<WorkspaceLimits> = {
  timeoutMs: 60_000,
  outputBytes: 1024 * 1024,
  diskBytes: 1024 * 1024 * 1024,
  memoryBytes: 2 * 1024 * 1024 * 1024,
  processes: 256,
};

/** The limits with defaults filled in, each checked to be a positive number. */
export function resolveLimits(limits: WorkspaceLimits = {}): Required<WorkspaceLimits> {
  const resolved = { ...DEFAULT_LIMITS, ...stripUndefined(limits) };
  for (const [name, value] of Object.entries(resolved)) {
    if (!(typeof value === 'number' && value > 0)) {
      throw new TypeError(`Workspace limit ${name} must be a positive number, got ${String(value)}.`);
    }
  }
  return resolved;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
