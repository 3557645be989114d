import { nodeBuiltin } from '../../core/index.js';
import type { AgentEntry, RunRecord } from '../records/index.js';

const FEATURE = 'A per-thread sandbox workspace';

// Entries made by `withRunWorkspace` with `scope: 'thread'`: their runs on one thread share files.
const threadScoped = new WeakSet<object>();

/** Notes that `entry`'s runs on one thread share a workspace (`scope: 'thread'`). */
export function markThreadScoped(entry: AgentEntry): void {
  threadScoped.add(entry);
}

/** True when the runs of `entry` on one thread share a workspace, so only one of them may run at a time. */
export function sharesThreadWorkspace(entry: AgentEntry | undefined): boolean {
  return entry !== undefined && threadScoped.has(entry);
}

/**
 * The folder name of a thread's sandbox workspace: `thread-` and a hash of the agent and thread id,
 * so any thread id (slashes, dots, any length) makes a safe name and two agents sharing a `dir` never meet.
 */
export async function threadFolder(agent: string, thread: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${agent}\0${thread}`));
  const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `thread-${hex.slice(0, 32)}`;
}

/** Which agent and thread a thread folder is for, kept beside it so retention can ask the store. */
export interface ThreadLabel {
  agent: string;
  thread: string;
}

/** Writes `<base>/.<folder>.thread` (the thread a folder belongs to) once. */
export function writeThreadLabel(base: string, folder: string, run: RunRecord): void {
  const { existsSync, mkdirSync, writeFileSync } = nodeBuiltin('node:fs', FEATURE);
  const file = `${base}/.${folder}.thread`;
  if (existsSync(file) || run.thread === undefined) return;
  mkdirSync(base, { recursive: true });
  const label: ThreadLabel = { agent: run.agent, thread: run.thread };
  writeFileSync(file, JSON.stringify(label));
}

/** The thread a folder belongs to, or undefined when its label is missing or unreadable. */
export function readThreadLabel(base: string, folder: string): ThreadLabel | undefined {
  const { readFileSync } = nodeBuiltin('node:fs', FEATURE);
  try {
    const label = JSON.parse(readFileSync(`${base}/.${folder}.thread`, 'utf8')) as Partial<ThreadLabel>;
    return typeof label.agent === 'string' && typeof label.thread === 'string'
      ? { agent: label.agent, thread: label.thread }
      : undefined;
  } catch {
    return undefined;
  }
}
