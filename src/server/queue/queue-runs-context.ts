import type { Queue } from 'bullmq';
import { boundedWait, type ServerLimits, stderrErrors } from '../health/index.js';
import { isRunQueueStore, type RunQueueStore, type RunRecord, type RunStore } from '../records/index.js';
import { type ChangeSignal, createChangeSignal } from '../runs/index.js';
import { type AgentQueueCounts, agentQueueCounts } from './agent-queue-counts.js';
import { loadBullmq, type QueueLocation, queueSettings, type RunJob } from './queue-names.js';
import { type Recovery, startRecovery } from './recover-runs.js';
import { subscribeRunEnds } from './run-ends.js';
import { createUnendedRuns, type UnendedRuns } from './unended-runs.js';

export interface QueueRunsOptions extends QueueLocation {
  /** Names of the agents workers serve (runs for other names are refused with 404). */
  agents: readonly string[];
  /** Shared with the workers: PostgreSQL in practice. */
  store: RunStore;
  limits?: ServerLimits;
  /** How often readers poll the store for changes. Default 100 ms. */
  pollMs?: number;
  /**
   * How often the reconciler looks for unfinished runs with no live lease and no job, and re-enqueues
   * them (it also runs at start-up and when Redis or PostgreSQL comes back). Default 10000 ms.
   */
  recoveryIntervalMs?: number;
  /** How long starting a run waits for Redis before answering 503. Default 5000 ms. */
  redisTimeoutMs?: number;
  /**
   * Where Redis and PostgreSQL errors of background work go (throttle them: an outage repeats them).
   * Default: stderr, each distinct message once per 10 s with a count.
   */
  onError?: (error: unknown) => void;
  /** Told how many runs a reconciler pass re-enqueued. */
  onRecovered?: (runs: number) => void;
  /**
   * Called once a run and its outbox row are committed, before its job is added. A seam for tests that
   * kill the process in that window (the reconciler then adds the job).
   */
  beforeEnqueue?: (run: RunRecord) => void | Promise<void>;
}

/** What the queue run service's steps work with. */
export interface QueueRunsContext {
  options: QueueRunsOptions;
  store: RunStore;
  queue: Queue<RunJob>;
  report: (error: unknown) => void;
  /** A Redis call bounded by `redisTimeoutMs`: an outage answers 503, not a request hanging. */
  bounded: <T>(promise: Promise<T>) => Promise<T>;
  /** Each agent's queued runs, counted in Redis against its limit. */
  waiting: AgentQueueCounts;
  /** Woken when a run's job stops on a worker. */
  ended: ChangeSignal;
  /** Runs started here whose job has not stopped yet: waiting on one needs no first read of the store. */
  unended: UnendedRuns;
  subscription: Promise<{ close(): Promise<void> }>;
  /** The store's outbox, when it keeps one (PostgreSQL): the reconciler adds the jobs Redis missed. */
  outbox?: RunStore & RunQueueStore;
  recovery?: Recovery;
}

/** Opens the queue, the counts and the run-end subscription, and starts the reconciler when the store has an outbox. */
export function queueRunsContext(options: QueueRunsOptions): QueueRunsContext {
  const { store } = options;
  const settings = queueSettings(options);
  const queue = new (loadBullmq().Queue as typeof Queue<RunJob>)(settings.name, settings.options);
  const report = options.onError ?? stderrErrors('thinkflow queue');
  queue.on('error', report);
  const redisTimeoutMs = options.redisTimeoutMs ?? 5000;
  const ctx: QueueRunsContext = {
    options,
    store,
    queue,
    report,
    bounded: (promise) => boundedWait(promise, { ms: redisTimeoutMs, dependency: 'redis' }),
    waiting: watchCounts(options, () => ctx.recovery, report),
    ended: createChangeSignal(),
    unended: createUnendedRuns(),
    // A job stopping on a worker wakes whoever waits on its run, instead of each waiter polling.
    subscription: subscribeRunEnds(
      options,
      (runId) => {
        ctx.unended.delete(runId);
        ctx.ended.notify(runId);
      },
      report,
    ),
    outbox: isRunQueueStore(store) ? store : undefined,
  };
  ctx.subscription.catch(() => {});
  if (ctx.outbox) ctx.recovery = reconcile(ctx, ctx.outbox);
  return ctx;
}

/** The agents' queued counts; a Redis that comes back may have lost every job, so the reconciler looks at once. */
function watchCounts(
  options: QueueRunsOptions,
  recovery: () => Recovery | undefined,
  report: (error: unknown) => void,
): AgentQueueCounts {
  let seenDown = false;
  const waiting = agentQueueCounts(options, (error) => {
    seenDown = true;
    report(error);
  });
  waiting.onReady(() => {
    if (seenDown) recovery()?.trigger();
    seenDown = false;
  });
  return waiting;
}

/** The reconciler, run again whenever PostgreSQL comes back. */
function reconcile(ctx: QueueRunsContext, outbox: RunStore & RunQueueStore): Recovery {
  const { options } = ctx;
  const recovery = startRecovery({
    store: outbox,
    queue: ctx.queue,
    counts: ctx.waiting,
    agents: options.agents,
    intervalMs: options.recoveryIntervalMs,
    onError: ctx.report,
    onRecovered: options.onRecovered,
  });
  outbox.onOutage((down) => {
    if (!down) recovery.trigger();
  });
  return recovery;
}
