import type { Queue } from 'bullmq';
import { assertPeers } from '../core/index.js';
import { agentQueueCounts } from './agent-queue-counts.js';
import { createChangeSignal } from './change-signal.js';
import { loadBullmq, type QueueLocation, queueSettings, type RunJob } from './queue-names.js';
import { subscribeRunEnds } from './run-ends.js';
import { isFinished } from './run-record.js';
import {
  queuedRun,
  queueFull,
  type RunService,
  type StartRequest,
  type StartResult,
  waitForEnd,
} from './run-service.js';
import { agentLimits, type ServerLimits } from './server-limits.js';
import { startOnce } from './start-once.js';
import type { RunStore } from './stores/run-store.js';
import { endUnstarted } from './synthetic-result.js';
import { createUnendedRuns } from './unended-runs.js';

export interface QueueRunsOptions extends QueueLocation {
  /** Names of the agents workers serve (runs for other names are refused with 404). */
  agents: readonly string[];
  /** Shared with the workers: PostgreSQL in practice. */
  store: RunStore;
  limits?: ServerLimits;
  /** How often readers poll the store for changes. Default 100 ms. */
  pollMs?: number;
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
  const waiting = agentQueueCounts(options);
  const pollMs = options.pollMs ?? 100;
  const ended = createChangeSignal();
  // Runs started here whose job has not stopped yet: waiting on one needs no first read of the store.
  const unended = createUnendedRuns();
  // A job stopping on a worker wakes whoever waits on its run, instead of each waiter polling.
  const subscription = subscribeRunEnds(options, (runId) => {
    unended.delete(runId);
    ended.notify(runId);
  });
  subscription.catch(() => {});
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

  async function startNew(request: StartRequest, id: string): Promise<StartResult> {
    const { agent } = request;
    if (!options.agents.includes(agent)) return { ok: false, reason: 'unknown_agent' };
    if (!(await waiting.add(agent, id, agentLimits(options.limits, agent).queued))) return queueFull(options.limits);
    const run = queuedRun(request, id);
    try {
      // The row must be committed before a worker can take the job, and its end must not go unheard.
      await Promise.all([store.createRun(run), subscription]);
      // Marked before the job exists: a run that ends before queue.add returns is heard and unmarked,
      // where marking it after would keep its id forever.
      unended.add(id);
      await queue.add(
        'run',
        { runId: id, agent },
        { jobId: id, attempts: 1000, removeOnComplete: true, removeOnFail: 1000 },
      );
    } catch (error) {
      unended.delete(id);
      await waiting.remove(agent, id).catch(() => {});
      throw error;
    }
    return { ok: true, run };
  }

  const service: RunService = {
    agentNames: () => [...options.agents],

    start(request) {
      return startOnce({
        store,
        request,
        keyHours: options.limits?.idempotencyKeyHours,
        start: (id) => startNew(request, id),
      });
    },

    get: (id) => store.getRun(id),
    list: (query) => store.queryRuns(query),
    events: (id, afterSeq) => store.readEvents(id, afterSeq),
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
      if (run.status === 'queued' && (await queue.remove(id)) === 1) {
        unended.delete(id);
        await waiting.remove(run.agent, id);
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

    async close() {
      await (await subscription).close();
      await queue.close();
      await waiting.close();
    },
  };
  return service;
}
