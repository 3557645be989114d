import type { AgentEvent, Step } from '../core/index.js';
import type { Workspace } from './workspace.js';
import { applyPayload, markRestored, type WorkspaceChangeEvent } from './workspace-journal.js';

/** What a resume, fork or rewind reads of a run to find its files. */
export interface WorkspaceHistory {
  /** The run's id (for messages). */
  runId: string;
  /** The run's logged events (with, for a fork, the events of the runs it came from, oldest first). */
  events: readonly AgentEvent[];
  /** The ids of the calls that finished (a checkpoint's steps and its pending step's `done`). */
  calls: ReadonlySet<string>;
}

/**
 * The `workspace_change` the files should be at: the last change made by a finished call (a change
 * its own call made, or a nested agent's before that call ended), or a rewind; else the run's base
 * (the files before its first change); undefined when the log holds no change at all.
 * A change by a call that did not finish (a crash came first) is never chosen, even once a resumed run
 * reports that call as cut off.
 */
export function restorePoint(history: WorkspaceHistory): WorkspaceChangeEvent | undefined {
  let base: WorkspaceChangeEvent | undefined;
  let latest: WorkspaceChangeEvent | undefined;
  let committed: WorkspaceChangeEvent | undefined;
  for (const event of history.events) {
    if (event.type === 'workspace_change') {
      if (event.base) base ??= event;
      else if (event.rewound) committed = latest = event;
      else latest = event;
    } else if (event.type === 'run_start' && !event.parentRunId) {
      // A resume: what changed after the last finished call came from calls the crash cut off (a resumed
      // run reports them with a tool_end of their own, which must not make their changes count).
      latest = committed;
    } else if (event.type === 'tool_end' && !event.parentRunId && history.calls.has(event.callId)) {
      if (latest && latest !== committed && (latest.callId === event.callId || latest.parentRunId !== undefined)) {
        committed = latest;
      }
    }
  }
  return committed ?? base;
}

/** The ids of the calls made in `steps` (and, for a checkpoint's running step, the ones that ended). */
export function finishedCalls(steps: readonly Step[], done: readonly { id: string }[] = []): Set<string> {
  const ids = new Set<string>();
  for (const step of steps) for (const call of step.toolCalls) ids.add(call.id);
  for (const call of done) ids.add(call.id);
  return ids;
}

/**
 * Puts a workspace's files back as they were at `point` (from `restorePoint`). A sandbox restores the
 * snapshot from its store. A virtual workspace restores it if this process still holds it, else
 * rebuilds it from the log: `ws` must then be a fresh workspace made as the run's was (same starting
 * files), and each change's `payload` from the base up to `point` is applied in order.
 */
export async function restoreWorkspace(
  ws: Workspace,
  point: WorkspaceChangeEvent | undefined,
  events: readonly AgentEvent[],
): Promise<void> {
  if (!point) return;
  const id = point.snapshot;
  if (ws.kind === 'sandbox') {
    await ws.restore(id);
    await markRestored(ws, id, id);
    return;
  }
  try {
    await ws.restore(id);
    await markRestored(ws, id, id);
    return;
  } catch {
    // Not in this process: rebuilt from the log below.
  }
  for (const change of changeChain(events, id)) if (change.payload) await applyPayload(ws, change.payload);
  await markRestored(ws, id);
}

/**
 * The changes that lead from the base to snapshot `id`, oldest first, following each change's `from`.
 * A rewind names a snapshot an earlier change made; the chain goes through that change.
 */
export function changeChain(events: readonly AgentEvent[], id: string): WorkspaceChangeEvent[] {
  const made = new Map<string, WorkspaceChangeEvent>();
  for (const event of events) {
    if (event.type === 'workspace_change' && !event.rewound && !made.has(event.snapshot))
      made.set(event.snapshot, event);
  }
  const chain: WorkspaceChangeEvent[] = [];
  const seen = new Set<string>();
  for (let change = made.get(id); change && !change.base && !seen.has(change.snapshot); ) {
    seen.add(change.snapshot);
    chain.push(change);
    change = change.from === undefined ? undefined : made.get(change.from);
  }
  return chain.reverse();
}

/**
 * Puts a workspace back to how it was when step `step` of a run began (after every call of the steps
 * before it), and resolves with the change it went back to (undefined when nothing had changed).
 *
 * @example
 * const point = await rewindWorkspace(ws, { runId, events, steps: result.steps, step: 2 });
 */
export async function rewindWorkspace(
  ws: Workspace,
  request: { runId: string; events: readonly AgentEvent[]; steps: readonly Step[]; step: number },
): Promise<WorkspaceChangeEvent | undefined> {
  const { runId, events, steps, step } = request;
  if (!Number.isInteger(step) || step < 0 || step > steps.length) {
    throw new RangeError(`step must be a step of run "${runId}", 0 to ${steps.length} (got ${String(step)}).`);
  }
  const point = restorePoint({ runId, events, calls: finishedCalls(steps.slice(0, step)) });
  await restoreWorkspace(ws, point, events);
  return point;
}
