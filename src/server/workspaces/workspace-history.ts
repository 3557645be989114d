import type { AgentEvent } from '../../core/index.js';
import { finishedCalls, restorePoint, type WorkspaceChangeEvent } from '../../workspace/index.js';
import type { RunRecord, RunStore } from '../records/index.js';
import { previousThreadRun } from './thread-runs.js';

/** Where a run's workspace stands in the store: the change to restore and the log that leads to it. */
export interface RunWorkspaceHistory {
  /** The change the files should be at; undefined when no change was ever logged. */
  point?: WorkspaceChangeEvent;
  /**
   * The events that lead to it: the fork sources' (up to the fork's point) or the thread's earlier
   * turns' (up to their last change), then the run's own.
   */
  events: AgentEvent[];
  /** The run whose log took each snapshot (a sandbox keeps a run's, or a thread's, snapshots beside its folder). */
  owner: Map<string, RunRecord>;
}

/** How a history is read: which calls of the run count, and whether a run's files go on from its thread's last turn. */
export interface HistoryOptions {
  /** The calls that finished (default: the run's result or checkpoint says). */
  calls?: ReadonlySet<string>;
  /** The workspace is shared by a thread's runs: a turn starts from the files the turn before it left. */
  threads?: boolean;
  /** Forks followed so far. */
  depth?: number;
}

/** The store reads a run's workspace history needs. */
export type HistoryStore = Pick<RunStore, 'getRun' | 'loadCheckpoint' | 'readEvents' | 'queryRuns'>;

// A fork of a fork of … deeper than this is read no further back.
const MAX_FORK_DEPTH = 32;

/**
 * A run's workspace history from the store: its own `workspace_change` events and the calls that
 * finished (its result's steps, or its checkpoint's steps and the running step's ended calls); for a
 * fork, the source's history up to the step it was forked at, so a fork starts from that step's files;
 * for a turn of a thread (with `threads`), the turn before it, so it starts from the files that turn left.
 */
export async function runWorkspaceHistory(
  store: HistoryStore,
  run: RunRecord,
  options: HistoryOptions = {},
): Promise<RunWorkspaceHistory> {
  const { threads = false, depth = 0 } = options;
  const finished = options.calls ?? (await runCalls(store, run));
  const own = await readAllEvents(store, run.id);
  let inherited: RunWorkspaceHistory | undefined;
  const fork = run.forkedFrom;
  const source = fork && depth < MAX_FORK_DEPTH ? await store.getRun(fork.runId) : undefined;
  if (fork && source) {
    const steps = (await stepsOf(store, source)).slice(0, fork.fromStep);
    inherited = await runWorkspaceHistory(store, source, { calls: finishedCalls(steps), threads, depth: depth + 1 });
  } else if (!fork && threads) {
    const previous = await previousThreadRun(store, run);
    if (previous) inherited = await runWorkspaceHistory(store, previous, { threads, depth });
  }
  const point = restorePoint({ runId: run.id, events: own, calls: finished }) ?? inherited?.point;
  const before = inherited?.point ? inherited.events.slice(0, inherited.events.indexOf(inherited.point) + 1) : [];
  const owner = new Map(inherited?.owner);
  for (const event of own) {
    if (event.type === 'workspace_change' && !event.rewound && !owner.has(event.snapshot)) {
      owner.set(event.snapshot, run);
    }
  }
  return { point, events: [...before, ...own], owner };
}

/**
 * A run's workspace history as it stood when step `step` began: after every call of the steps before
 * it. A step a fork carried over is looked up in the run it came from.
 */
export async function workspaceHistoryAt(
  store: HistoryStore,
  run: RunRecord,
  step: number,
  threads = false,
): Promise<RunWorkspaceHistory> {
  const fork = run.forkedFrom;
  const source = fork && step <= fork.fromStep ? await store.getRun(fork.runId) : undefined;
  if (source) return workspaceHistoryAt(store, source, step, threads);
  return runWorkspaceHistory(store, run, { calls: finishedCalls((await stepsOf(store, run)).slice(0, step)), threads });
}

async function runCalls(store: Pick<RunStore, 'loadCheckpoint'>, run: RunRecord): Promise<Set<string>> {
  if (run.result) return finishedCalls(run.result.steps);
  const checkpoint = await store.loadCheckpoint(run.id);
  return finishedCalls(checkpoint?.steps ?? [], checkpoint?.pending?.done);
}

/** A run's steps: its result's when it ended, else its last checkpoint's. */
export async function stepsOf(store: Pick<RunStore, 'loadCheckpoint'>, run: RunRecord) {
  return run.result?.steps ?? (await store.loadCheckpoint(run.id))?.steps ?? [];
}

/** Every event of a run's log, in order. */
export async function readAllEvents(store: Pick<RunStore, 'readEvents'>, runId: string): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for (let after = 0; ; ) {
    const page = await store.readEvents(runId, after, 1000);
    for (const stored of page) events.push(stored.event);
    if (page.length < 1000) return events;
    after = page[page.length - 1].seq;
  }
}
