import type { Queue } from 'bullmq';
import { assertPeers, errorMessage, redactedIfSecret } from '../../core/index.js';
import { agentLimits, boundedWait, readinessOf, type ServerLimits, stderrErrors } from '../health/index.js';
import type { RunStore } from '../records/index.js';
import {
  isFinished,
  isRunQueueStore,
  queuedRun,
  queueFull,
  type RunRecord,
  type RunService,
  type StartRequest,
  type StartResult,
  waitForEnd,
} from '../records/index.js';
import { createChangeSignal, endUnstarted, storeRuns } from '../runs/index.js';
import { agentQueueCounts } from './agent-queue-counts.js';
import { loadBullmq, type QueueLocation, queueSettings, type RunJob } from './queue-names.js';
import { addRunJob, startRecovery } from './recover-runs.js';
import { subscribeRunEnds } from './run-ends.js';
import { createUnendedRuns } from './unended-runs.js';

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

/**
 * A run service for API servers when runs are scaled out: a run is a row in the shared store plus a
 * BullMQ job, and `thinkflow worker` processes execute it. Status and events are read from the store;
 * cancels and answers are written there for the worker to pick up.
 */
export function createQueueRuns(options: QueueRunsOptions): RunService {
  assertPeers('queue');
  const { store } = options;
  const settings = queueSettings(options);
  const queue = new (loadBullmq().Queue as typeof Queue<RunJob>)(settings.name, settings.options);
  const report = options.onError ?? stderrErrors('thinkflow queue');
  queue.on('error', report);
  const redisTimeoutMs = options.redisTimeoutMs ?? 5000;
  const bounded = <T>(promise: Promise<T>) => boundedWait(promise, { ms: redisTimeoutMs, dependency: 'redis' });
  let recovery: ReturnType<typeof startRecovery> | undefined;
  // A Redis that comes back may have lost every job (no persistence): the reconciler looks at once.
  let seenDown = false;
  const waiting = agentQueueCounts(options, (error) => {
    seenDown = true;
    report(error);
  });
  waiting.onReady(() => {
    if (seenDown) recovery?.trigger();
    seenDown = false;
  });
  const pollMs = options.pollMs ?? 100;
  const ended = createChangeSignal();
  // Runs started here whose job has not stopped yet: waiting on one needs no first read of the store.
  const unended = createUnendedRuns();
  // A job stopping on a worker wakes whoever waits on its run, instead of each waiter polling.
  const subscription = subscribeRunEnds(
    options,
    (runId) => {
      unended.delete(runId);
      ended.notify(runId);
    },
    report,
  );
  subscription.catch(() => {});
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  const outbox = isRunQueueStore(store) ? store : undefined;
  if (outbox) {
    recovery = startRecovery({
      store: outbox,
      queue,
      counts: waiting,
      agents: options.agents,
      intervalMs: options.recoveryIntervalMs,
      onError: report,
      onRecovered: options.onRecovered,
    });
    outbox.onOutage((down) => {
      if (!down) recovery?.trigger();
    });
  }
  const ready = readinessOf({
    postgres: () => (outbox ? outbox.ping() : Promise.resolve()),
    redis: async () => {
      await boundedWait(waiting.ping(), { ms: 1000, dependency: 'redis' });
    },
  });

  /**
   * Adds the run's job and marks its outbox row. A Redis that does not answer leaves the row: the
   * reconciler adds the job once Redis is back, so the run is accepted either way.
   */
  async function relay(run: RunRecord): Promise<void> {
    try {
      await bounded(addRunJob(queue, run));
    } catch (error) {
      // No run id in the line: an outage repeats it, and the throttle folds identical lines.
      report(
        new Error(`a run was stored; its job is added once Redis answers (${errorMessage(error)})`, { cause: error }),
      );
      return;
    }
    outbox?.markEnqueued([run.id]).catch(report);
  }

  async function startNew(request: StartRequest, id: string): Promise<StartResult> {
    const { agent } = request;
    if (!options.agents.includes(agent)) return { ok: false, reason: 'unknown_agent' };
    // A Redis that does not answer makes this a 503 in bounded time, not a request hanging for the outage.
    if (!(await bounded(waiting.add(agent, id, agentLimits(options.limits, agent).queued))))
      return queueFull(options.limits);
    const run = queuedRun(request, id);
    try {
      // The row (with its outbox row) must be committed before a worker can take the job, and its
      // end must not go unheard.
      // A fork's first checkpoint goes in the same commit as its row (writes of one tick are batched).
      await Promise.all([
        outbox ? outbox.createQueuedRun(run) : store.createRun(run),
        request.fork && store.saveCheckpoint({ ...request.fork, runId: id }),
        bounded(subscription),
      ]);
    } catch (error) {
      waiting.remove(agent, id).catch(() => {});
      throw error;
    }
    // Marked before the job exists: a run that ends before queue.add returns is heard and unmarked,
    // where marking it after would keep its id forever.
    unended.add(id);
    await options.beforeEnqueue?.(run);
    if (outbox) await relay(run);
    else await addRunJob(queue, run);
    // As the store keeps it (and the worker reads it): redacted.
    return { ok: true, run: redactedIfSecret(run) };
  }

  const service: RunService = {
    ...storeRuns({ store, limits: options.limits, startNew }),
    agentNames: () => [...options.agents],
    changed: (_id, timeoutMs) => sleep(Math.min(timeoutMs, pollMs)),
    async wait(id, signal) {
      // A run started here a moment ago is still queued or running: wait for its job first, then read.
      let read = !unended.delete(id);
      for (;;) {
        if (read) {
          const run = await store.getRun(id);
          if (!run || isFinished(run.status) || signal?.aborted) return run;
        }
        read = true;
        await ended.wait(id, 1000);
      }
    },

    async cancel(id) {
      const run = await store.getRun(id);
      if (!run) return undefined;
      if (run.status === 'queued' && (await bounded(queue.remove(id))) === 1) {
        unended.delete(id);
        await bounded(waiting.remove(run.agent, id));
        await endUnstarted(store, run, 'Cancelled before it started.');
        return store.getRun(id);
      }
      await store.updateRun(id, { cancelRequested: true });
      const signal = AbortSignal.timeout(5000);
      return waitForEnd(service, id, signal);
    },

    async answer(id, { questionId, ...answer }) {
      const run = await store.getRun(id);
      if (!run) return 'not_found';
      const open = (run.questions ?? []).filter((q) => !q.answer);
      const target = questionId ? open.find((q) => q.id === questionId) : open.length === 1 ? open[0] : undefined;
      if (!target) return 'no_question';
      const questions = (run.questions ?? []).map((q) => (q.id === target.id ? { ...q, answer } : q));
      await store.updateRun(id, { questions, updatedAt: Date.now() });
      return 'answered';
    },

    ready,

    async close() {
      await recovery?.stop();
      await (await subscription).close();
      await queue.close();
      await waiting.close();
    },
  };
  return service;
}
