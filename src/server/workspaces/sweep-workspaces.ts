import { nodeBuiltin } from '../../core/index.js';
import type { RunStore } from '../records/index.js';
import { readThreadLabel } from './thread-folder.js';

const FEATURE = 'A per-run sandbox workspace';
/** Least time between two sweeps of one folder. */
const SWEEP_EVERY_MS = 60_000;
const lastSweep = new Map<string, number>();
// Only what this module makes: a folder named by a run id (UUID-shaped) or an unbound one, and their snapshots.
const RUN_FOLDER = /^\.?((?:unbound-)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(\.snapshots)?$/;
// A thread's folder, its snapshots, and its label (which agent and thread it is for).
const THREAD_FOLDER = /^\.?(thread-[0-9a-f]{32})(\.snapshots|\.thread)?$/;

/** The store reads a sweep needs: whether a run, or any run of a thread, is still kept. */
export type SweepStore = Pick<RunStore, 'getRuns' | 'queryRuns'>;

/**
 * Removes the run folders (and their snapshots) under `base` whose runs the store no longer holds:
 * retention deleted them; and the thread folders (`scope: thread`) of threads the store holds no run
 * of any more: retention deleted their last run. Anything else in `base` is left alone (a thread
 * folder whose label is gone too). Resolves with the run ids and thread folders removed.
 */
export async function sweepWorkspaces(base: string, store: SweepStore): Promise<string[]> {
  const { existsSync, readdirSync, rmSync } = nodeBuiltin('node:fs', FEATURE);
  if (!existsSync(base)) return [];
  const ids = new Set<string>();
  const threads = new Set<string>();
  for (const name of readdirSync(base)) {
    const match = RUN_FOLDER.exec(name);
    if (match && name.startsWith('.') === (match[2] !== undefined)) ids.add(match[1]);
    const thread = THREAD_FOLDER.exec(name);
    if (thread && name.startsWith('.') === (thread[2] !== undefined)) threads.add(thread[1]);
  }
  const kept = new Set((await store.getRuns([...ids])).map((run) => run.id));
  const gone = [...ids].filter((id) => !kept.has(id));
  for (const folder of threads) {
    const label = readThreadLabel(base, folder);
    if (!label) continue;
    const page = await store.queryRuns({ agent: label.agent, thread: label.thread, limit: 1 });
    if (page.runs.length === 0) gone.push(folder);
  }
  for (const id of gone) {
    rmSync(`${base}/${id}`, { recursive: true, force: true });
    rmSync(`${base}/.${id}.snapshots`, { recursive: true, force: true });
    rmSync(`${base}/.${id}.thread`, { force: true });
  }
  return gone;
}

/** Sweeps `base` in the background, at most once a minute per folder. */
export function sweepWorkspacesSoon(base: string, store: SweepStore): void {
  const now = Date.now();
  if (now - (lastSweep.get(base) ?? 0) < SWEEP_EVERY_MS) return;
  lastSweep.set(base, now);
  sweepWorkspaces(base, store).catch((error: unknown) => {
    process.stderr.write(`thinkflow: could not sweep workspaces in ${base}: ${String(error)}\n`);
  });
}
