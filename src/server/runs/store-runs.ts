import type { ServerLimits } from '../health/index.js';
import type { RunService, RunStore, StartRequest, StartResult } from '../records/index.js';
import { threadBusyMessage, unfinishedThreadRun } from '../workspaces/index.js';
import { forkStartRequest } from './fork-agent-run.js';
import { startOnce } from './start-once.js';

/** What a run service brings to `storeRuns`: its store, its limits, and how it starts a new run under an id. */
export interface StoreRunsContext {
  store: RunStore;
  limits?: ServerLimits;
  /** The service's own start of a new run (its checks, its queue, its store writes) under `id`. */
  startNew: (request: StartRequest, id: string) => Promise<StartResult>;
  /** True when the agent's runs on one thread share a workspace: one at a time per thread. */
  oneRunPerThread?: (agent: string) => boolean;
}

/** The part of a run service that is the same whether runs execute here or on workers. */
export type StoreRuns = Pick<RunService, 'start' | 'get' | 'status' | 'list' | 'events'> &
  Required<Pick<RunService, 'fork'>>;

/**
 * The start and the reads local and queue runs share: a start claims its Idempotency-Key once, a fork
 * is a start from the source run's checkpoint, and a run, its status, the listing and the events are
 * read from the store.
 */
export function storeRuns({ store, limits, startNew, oneRunPerThread }: StoreRunsContext): StoreRuns {
  const exclusive = exclusiveThreads(store, startNew, oneRunPerThread);
  const start = (request: StartRequest) =>
    startOnce({ store, request, keyHours: limits?.idempotencyKeyHours, start: (id) => exclusive(request, id) });
  return {
    start,
    async fork(id, request) {
      const prepared = await forkStartRequest(store, id, request);
      return prepared.ok ? start(prepared.start) : prepared;
    },
    get: (id) => store.getRun(id),
    status: (id) => store.getStatus(id),
    list: (query) => store.queryRuns(query),
    events: (id, afterSeq) => store.readEvents(id, afterSeq),
  };
}

/**
 * `startNew`, refusing (`thread_busy`, 409) a run on a thread another run of the agent still answers,
 * when the agent's runs on a thread share a workspace. Starts on one thread take turns in this
 * process, so two that arrive together cannot both pass the check; a start that raced it on another
 * process fails when its run opens the workspace (`withRunWorkspace`).
 */
function exclusiveThreads(
  store: RunStore,
  startNew: StoreRunsContext['startNew'],
  oneRunPerThread: StoreRunsContext['oneRunPerThread'],
): StoreRunsContext['startNew'] {
  const turns = new Map<string, Promise<unknown>>();
  return async (request, id) => {
    const { agent, thread } = request;
    if (thread === undefined || !oneRunPerThread?.(agent)) return startNew(request, id);
    const key = `${agent}\0${thread}`;
    const before = turns.get(key) ?? Promise.resolve();
    const mine = before.then(async (): Promise<StartResult> => {
      const busy = await unfinishedThreadRun(store, { agent, thread });
      if (busy)
        return { ok: false, reason: 'thread_busy', runId: busy, message: threadBusyMessage(agent, thread, busy) };
      return startNew(request, id);
    });
    const settled = mine.catch(() => undefined);
    turns.set(key, settled);
    void settled.then(() => {
      if (turns.get(key) === settled) turns.delete(key);
    });
    return mine;
  };
}
