import { assertPeers } from '../../core/index.js';
import { boundedWait, readinessOf } from '../health/index.js';
import { isFinished, type RunRecord, type RunService, type RunStore } from '../records/index.js';
import { endUnstarted, storeRuns, waitForEnd } from '../runs/index.js';
import { type QueueRunsContext, type QueueRunsOptions, queueRunsContext } from './queue-runs-context.js';
import { startQueuedRun } from './start-queued-run.js';

/**
 * A run service for API servers when runs are scaled out: a run is a row in the shared store plus a
 * BullMQ job, and `thinkflow worker` processes execute it. Status and events are read from the store;
 * cancels and answers are written there for the worker to pick up.
 */
export function createQueueRuns(options: QueueRunsOptions): RunService {
  assertPeers('queue');
  const ctx = queueRunsContext(options);
  const { store, queue, waiting, outbox } = ctx;
  const pollMs = options.pollMs ?? 100;
  const service: RunService = {
    ...storeRuns({ store, limits: options.limits, startNew: (request, id) => startQueuedRun(ctx, request, id) }),
    agentNames: () => [...options.agents],
    changed: (_id, timeoutMs) => sleep(Math.min(timeoutMs, pollMs)),
    wait: (id, signal) => waitQueued(ctx, id, signal),
    cancel: (id) => cancelQueued(ctx, service, id),
    answer: (id, answer) => answerInStore(store, id, answer),
    ready: readinessOf({
      postgres: () => (outbox ? outbox.ping() : Promise.resolve()),
      redis: async () => {
        await boundedWait(waiting.ping(), { ms: 1000, dependency: 'redis' });
      },
    }),
    async close() {
      await ctx.recovery?.stop();
      await (await ctx.subscription).close();
      await queue.close();
      await waiting.close();
    },
  };
  return service;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A run started here a moment ago is still queued or running: wait for its job first, then read. */
async function waitQueued(ctx: QueueRunsContext, id: string, signal?: AbortSignal): Promise<RunRecord | undefined> {
  let read = !ctx.unended.delete(id);
  for (;;) {
    if (read) {
      const run = await ctx.store.getRun(id);
      if (!run || isFinished(run.status) || signal?.aborted) return run;
    }
    read = true;
    await ctx.ended.wait(id, 1000);
  }
}

/** A queued run whose job is still there ends unstarted; a running one is asked to stop through the store. */
async function cancelQueued(ctx: QueueRunsContext, service: RunService, id: string): Promise<RunRecord | undefined> {
  const { store, bounded } = ctx;
  const run = await store.getRun(id);
  if (!run) return undefined;
  if (run.status === 'queued' && (await bounded(ctx.queue.remove(id))) === 1) {
    ctx.unended.delete(id);
    await bounded(ctx.waiting.remove(run.agent, id));
    await endUnstarted(store, run, 'Cancelled before it started.');
    return store.getRun(id);
  }
  await store.updateRun(id, { cancelRequested: true });
  const signal = AbortSignal.timeout(5000);
  return waitForEnd(service, id, signal);
}

/** Writes the answer on the run's question in the store, for its worker to pick up. */
async function answerInStore(
  store: RunStore,
  id: string,
  { questionId, ...answer }: Parameters<RunService['answer']>[1],
): Promise<'answered' | 'no_question' | 'not_found'> {
  const run = await store.getRun(id);
  if (!run) return 'not_found';
  const open = (run.questions ?? []).filter((q) => !q.answer);
  const target = questionId ? open.find((q) => q.id === questionId) : open.length === 1 ? open[0] : undefined;
  if (!target) return 'no_question';
  const questions = (run.questions ?? []).map((q) => (q.id === target.id ? { ...q, answer } : q));
  await store.updateRun(id, { questions, updatedAt: Date.now() });
  return 'answered';
}
