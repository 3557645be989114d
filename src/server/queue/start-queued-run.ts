import { errorMessage, redactedIfSecret } from '../../core/index.js';
import { agentLimits } from '../health/index.js';
import { queuedRun, queueFull, type RunRecord, type StartRequest, type StartResult } from '../records/index.js';
import type { QueueRunsContext } from './queue-runs-context.js';
import { addRunJob } from './recover-runs.js';

/** Counts the run against its agent's queue, commits its row (and outbox row), then adds its job. */
export async function startQueuedRun(ctx: QueueRunsContext, request: StartRequest, id: string): Promise<StartResult> {
  const { options, store, outbox, bounded, waiting } = ctx;
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
      bounded(ctx.subscription),
    ]);
  } catch (error) {
    waiting.remove(agent, id).catch(() => {});
    throw error;
  }
  // Marked before the job exists: a run that ends before queue.add returns is heard and unmarked,
  // where marking it after would keep its id forever.
  ctx.unended.add(id);
  await options.beforeEnqueue?.(run);
  if (outbox) await relay(ctx, run);
  else await addRunJob(ctx.queue, run);
  // As the store keeps it (and the worker reads it): redacted.
  return { ok: true, run: redactedIfSecret(run) };
}

/**
 * Adds the run's job and marks its outbox row. A Redis that does not answer leaves the row: the
 * reconciler adds the job once Redis is back, so the run is accepted either way.
 */
async function relay(ctx: QueueRunsContext, run: RunRecord): Promise<void> {
  try {
    await ctx.bounded(addRunJob(ctx.queue, run));
  } catch (error) {
    // No run id in the line: an outage repeats it, and the throttle folds identical lines.
    ctx.report(
      new Error(`a run was stored; its job is added once Redis answers (${errorMessage(error)})`, { cause: error }),
    );
    return;
  }
  ctx.outbox?.markEnqueued([run.id]).catch(ctx.report);
}
