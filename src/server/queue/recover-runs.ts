import type { Queue } from 'bullmq';
import { errorMessage } from '../../core/index.js';
import { boundedWait } from '../health/index.js';
import type { RecoverableRun, RunQueueStore } from '../records/index.js';
import type { AgentQueueCounts } from './agent-queue-counts.js';
import type { RunJob } from './queue-names.js';

/**
 * The options every run job is added with. A retry after a failure of the run itself waits a capped
 * exponential backoff with jitter (the worker's `capped` strategy); outages spend no attempts.
 */
export const JOB_OPTIONS = {
  attempts: 1000,
  backoff: { type: 'capped' },
  removeOnComplete: true,
  removeOnFail: 1000,
} as const;

/** Adds a run's job under the run's id: adding a job that exists already does nothing. */
export function addRunJob(queue: Queue<RunJob>, run: { id: string; agent: string }): Promise<unknown> {
  return queue.add('run', { runId: run.id, agent: run.agent }, { ...JOB_OPTIONS, jobId: run.id });
}

/** A job in one of these states is on its way to a worker or on one. */
export const LIVE_JOB_STATES: ReadonlySet<string> = new Set([
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
]);

export interface RecoveryOptions {
  store: RunQueueStore;
  queue: Queue<RunJob>;
  counts: AgentQueueCounts;
  agents: readonly string[];
  /** How often a pass runs. Default 10000 ms; 0 runs only the start-up pass and those `trigger` asks for. */
  intervalMs?: number;
  onError?: (error: unknown) => void;
  /** Told how many runs a pass put back on the queue (when any). */
  onRecovered?: (runs: number) => void;
}

/** The background reconciler of one API server. */
export interface Recovery {
  /** Runs a pass now (or right after the one running); resolves with how many runs it re-enqueued. */
  run(): Promise<number>;
  /** Asks for a pass soon (a dependency came back). */
  trigger(): void;
  stop(): Promise<void>;
}

/**
 * PostgreSQL is the source of truth and Redis only delivers: every unfinished run that holds no live
 * lease and has no live job (Redis lost it in a restart, the API server died before adding it, its
 * attempts ran out in an outage) gets its job added again, and each agent's queued count is rebuilt
 * from the queued rows. Runs at start-up, every `intervalMs` and when a dependency comes back, in one
 * process at a time (an advisory lock, as the pruner takes).
 */
export function startRecovery(options: RecoveryOptions): Recovery {
  const intervalMs = options.intervalMs ?? 10_000;
  let stopped = false;
  let current: Promise<number> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  const run = (): Promise<number> => {
    if (current) {
      again = true;
      return current;
    }
    current = recoveryPass(options).finally(() => {
      current = undefined;
      if (again && !stopped) {
        again = false;
        void run().catch(report);
      }
    });
    return current;
  };
  // The cause kept: an outage stays recognisable as one (logged once per interval, without a stack).
  const report = (error: unknown) =>
    options.onError?.(new Error(`recovering runs failed: ${errorMessage(error)}`, { cause: error }));
  const schedule = (delay: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      run()
        .catch(report)
        .finally(() => {
          if (intervalMs > 0) schedule(intervalMs);
        });
    }, delay);
    timer.unref();
  };
  schedule(0);

  return {
    run,
    trigger: () => schedule(200),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current?.catch(() => {});
    },
  };
}

// The pass holds a transaction open: Redis calls that would wait out an outage fail it instead.
const redis = <T>(promise: Promise<T>) => boundedWait(promise, { ms: 5000, dependency: 'redis' });

/** One reconciler pass: the queued counts rebuilt, and every run without a live job given one again. */
async function recoveryPass(options: RecoveryOptions): Promise<number> {
  const { store, counts } = options;
  let requeued = 0;
  // Ids counted since this moment may belong to rows not committed yet: the count keeps them.
  const before = Date.now() - 5000;
  await store.withRecoverableRuns(async (runs) => {
    for (const agent of options.agents) {
      const queued = runs.filter((run) => run.agent === agent && run.status === 'queued');
      await redis(counts.reconcile(agent, queued, before));
    }
    for (let i = 0; i < runs.length; i += 50) {
      const done = await Promise.all(runs.slice(i, i + 50).map((run) => requeue(options, run)));
      requeued += done.filter(Boolean).length;
    }
  });
  if (requeued > 0) options.onRecovered?.(requeued);
  return requeued;
}

/** Adds the run's job again unless a live one exists; true when it did. */
async function requeue(options: RecoveryOptions, run: RecoverableRun): Promise<boolean> {
  const { store, queue } = options;
  const state = await redis(queue.getJobState(run.id));
  if (!LIVE_JOB_STATES.has(state)) {
    // A finished job keeps its id (a failed one for inspection): it must go before the id is reused.
    if (state !== 'unknown') await redis(queue.remove(run.id));
    await redis(addRunJob(queue, run));
  }
  if (run.outboxed) store.markEnqueued([run.id]).catch((error: unknown) => options.onError?.(error));
  return !LIVE_JOB_STATES.has(state);
}
