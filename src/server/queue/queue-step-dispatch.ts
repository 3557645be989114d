import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import { assertPeers } from '../../core/index.js';
import type { StepDispatch, StepJob, StepJobResult } from '../../workflow/index.js';
import { stderrErrors } from '../health/index.js';
import { loadBullmq, type QueueLocation, stepQueueSettings } from './queue-names.js';
import type { QueuedStep } from './queued-step.js';
import {
  enqueue,
  listenForEnds,
  recheckWaiting,
  type StepQueueContext,
  settle,
  type Waiter,
} from './step-job-waiters.js';

/**
 * A step's job id: one per run and checkpoint path, so an engine that restarts and dispatches the step
 * again waits on the job already there instead of adding a second one. (BullMQ ids cannot hold ":".)
 */
export function stepJobId(step: Pick<StepJob, 'runId' | 'path'>): string {
  return `step|${encodeURIComponent(step.runId)}|${encodeURIComponent(step.path)}`;
}

/** Options of `queueStepDispatch`. */
export interface StepQueueOptions extends QueueLocation {
  /**
   * How often the jobs waited on are looked up in Redis, in case an end went unheard (a Redis restart
   * lost the job or its events): a lost job is added again, and its worker finds the step's
   * checkpoint if it had finished. Default 10000 ms.
   */
  recheckMs?: number;
  /** Where Redis errors go. Default: stderr, each distinct message once per 10 s with a count. */
  onError?: (error: unknown) => void;
}

/** The engine's side of queue mode: `dispatch` for `WorkflowRunOptions`, and `close`. */
export interface StepQueue {
  dispatch: StepDispatch;
  /** Stops waiting: steps still out end their runs' passes with an error (a resume continues them). */
  close(): Promise<void>;
}

/**
 * Sends each leaf step of a workflow run to `thinkflow worker` processes as a BullMQ job (queue
 * `<queueName>-steps`), and resolves with the checkpoint the worker wrote. The rest of the run stays
 * where it was started.
 * @example
 * const steps = queueStepDispatch({ redisUrl: 'redis://127.0.0.1:6379' });
 * const result = await flow.run(input, { store: postgresWorkflowStore({ connectionString }), dispatch: steps.dispatch });
 * await steps.close();
 */
export function queueStepDispatch(options: StepQueueOptions): StepQueue {
  assertPeers('queue');
  const settings = stepQueueSettings(options);
  const bullmq = loadBullmq();
  const ctx: StepQueueContext = {
    queue: new (bullmq.Queue as typeof Queue<QueuedStep>)(settings.name, settings.options),
    // One stream reader for every step this process waits on, rather than a poll per step.
    events: new bullmq.QueueEvents(settings.name, settings.options),
    report: options.onError ?? stderrErrors('thinkflow workflow steps'),
    waiting: new Map(),
  };
  ctx.queue.on('error', ctx.report);
  ctx.events.on('error', ctx.report);
  const listening = ctx.events.waitUntilReady();
  listening.catch(() => {});
  listenForEnds(ctx);
  const recheck = recheckWaiting(ctx, options.recheckMs ?? 10_000);

  let closed: Promise<void> | undefined;
  return {
    dispatch: (step, signal) => dispatchStep(ctx, listening, step, signal),
    close() {
      closed ??= (async () => {
        clearInterval(recheck);
        for (const [id, waiter] of [...ctx.waiting]) {
          const { path, runId } = waiter.job;
          const error = new Error(
            `The step queue closed while step ${path} of run "${runId}" was out on a worker: resume the run to continue it.`,
          );
          settle(ctx, id, waiter, { error });
        }
        await ctx.events.close().catch(ctx.report);
        await ctx.queue.close().catch(ctx.report);
      })();
      return closed;
    },
  };
}

/** Adds the step's job (once listening for its end) and resolves with the checkpoint its worker wrote. */
async function dispatchStep(
  ctx: StepQueueContext,
  listening: Promise<unknown>,
  step: StepJob,
  signal: AbortSignal,
): Promise<StepJobResult> {
  signal.throwIfAborted();
  // Listening before the job exists: its end cannot come before anyone hears it.
  await listening;
  const id = stepJobId(step);
  const token = randomUUID();
  let waiter!: Waiter;
  const done = new Promise<StepJobResult>((resolve, reject) => {
    waiter = { token, job: { ...step, token }, resolve, reject };
  });
  // Settled early (an abort, a refused add), it is read below or not at all.
  done.catch(() => {});
  ctx.waiting.set(id, waiter);
  const onAbort = () => {
    settle(ctx, id, waiter, { error: signal.reason });
    // Still waiting for a worker, it need not run; one already running finishes and checkpoints.
    ctx.queue.remove(id).catch(() => {});
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    await enqueue(ctx, id, waiter);
    return await done;
  } catch (error) {
    settle(ctx, id, waiter, { error });
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
