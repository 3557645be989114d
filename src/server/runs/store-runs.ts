import type { ServerLimits } from '../health/index.js';
import type { RunService, RunStore, StartRequest, StartResult } from '../records/index.js';
import { forkStartRequest } from './fork-agent-run.js';
import { startOnce } from './start-once.js';

/** What a run service brings to `storeRuns`: its store, its limits, and how it starts a new run under an id. */
export interface StoreRunsContext {
  store: RunStore;
  limits?: ServerLimits;
  /** The service's own start of a new run (its checks, its queue, its store writes) under `id`. */
  startNew: (request: StartRequest, id: string) => Promise<StartResult>;
}

/** The part of a run service that is the same whether runs execute here or on workers. */
export type StoreRuns = Pick<RunService, 'start' | 'get' | 'status' | 'list' | 'events'> &
  Required<Pick<RunService, 'fork'>>;

/**
 * The start and the reads local and queue runs share: a start claims its Idempotency-Key once, a fork
 * is a start from the source run's checkpoint, and a run, its status, the listing and the events are
 * read from the store.
 */
export function storeRuns({ store, limits, startNew }: StoreRunsContext): StoreRuns {
  const start = (request: StartRequest) =>
    startOnce({ store, request, keyHours: limits?.idempotencyKeyHours, start: (id) => startNew(request, id) });
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
