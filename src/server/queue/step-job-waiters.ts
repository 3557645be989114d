import type { Queue, QueueEvents } from 'bullmq';
import { StepInputError, type StepJobResult } from '../../workflow/index.js';
import { type QueuedStep, QueuedStepResult } from './queued-step.js';
import { LIVE_JOB_STATES } from './recover-runs.js';

/**
 * One attempt: a step that throws fails its run with its message (a resume runs it again), never a
 * retry storm. A dead worker's job is not an attempt: the stalled check hands it to another worker.
 * Ended jobs are kept a while, so an engine that looks late still finds how its step ended.
 */
export const STEP_JOB_OPTIONS = {
  attempts: 1,
  removeOnComplete: { age: 3600 },
  removeOnFail: { age: 86_400 },
} as const;

/** A dispatch waiting on its step's job. */
export interface Waiter {
  token: string;
  job: QueuedStep;
  resolve(result: StepJobResult): void;
  reject(error: unknown): void;
}

/** What the step queue's steps work with: the queue, its event stream, and the dispatches waiting, by job id. */
export interface StepQueueContext {
  queue: Queue<QueuedStep>;
  events: QueueEvents;
  report: (error: unknown) => void;
  waiting: Map<string, Waiter>;
}

/** Ends the wait of `waiter` (if it is still the one waiting on the job) with a result or an error. */
export function settle(
  ctx: StepQueueContext,
  id: string,
  waiter: Waiter,
  outcome: { result: StepJobResult } | { error: unknown },
): void {
  if (ctx.waiting.get(id) !== waiter) return;
  ctx.waiting.delete(id);
  if ('result' in outcome) waiter.resolve(outcome.result);
  else waiter.reject(outcome.error);
}

/** Reads a completed job's return value as this dispatch's result. */
export function completed(ctx: StepQueueContext, id: string, waiter: Waiter, value: unknown): void {
  const parsed = QueuedStepResult.safeParse(value);
  if (!parsed.success) {
    const error = new Error(
      `The worker's answer for step ${waiter.job.path} of run "${waiter.job.runId}" is not a step result: ${parsed.error.message}`,
    );
    settle(ctx, id, waiter, { error });
    return;
  }
  // An earlier dispatch of this step (before a resume) may end late on the stream: not this one's.
  if (parsed.data.token !== waiter.token) return;
  if ('refused' in parsed.data) settle(ctx, id, waiter, { error: new StepInputError(parsed.data.refused.message) });
  else {
    const { token: _, ...result } = parsed.data;
    settle(ctx, id, waiter, { result });
  }
}

/** Hears the ends of the jobs waited on, as the event stream brings them. */
export function listenForEnds(ctx: StepQueueContext): void {
  ctx.events.on('completed', ({ jobId, returnvalue }) => {
    const waiter = ctx.waiting.get(jobId);
    if (waiter) completed(ctx, jobId, waiter, returnvalue);
  });
  // The event carries no token: the job says whether it is this dispatch's.
  ctx.events.on('failed', ({ jobId }) => {
    const waiter = ctx.waiting.get(jobId);
    if (waiter) look(ctx, jobId, waiter).catch(ctx.report);
  });
}

/** Adds the step's job, or waits on the live one an earlier dispatch (before a restart) added. */
export async function enqueue(ctx: StepQueueContext, id: string, waiter: Waiter): Promise<void> {
  const existing = await ctx.queue.getJob(id);
  if (existing) {
    const state = await existing.getState();
    if (LIVE_JOB_STATES.has(state)) {
      waiter.token = existing.data.token;
      return;
    }
    // Ended (a failure a resume retries, a suspend a resume continues): the id is free once it goes.
    await existing.remove();
  }
  await ctx.queue.add('step', waiter.job, { ...STEP_JOB_OPTIONS, jobId: id });
}

/** Reads how the step's job stands, for an end the event stream did not bring. */
async function look(ctx: StepQueueContext, id: string, waiter: Waiter): Promise<void> {
  const { queue } = ctx;
  // The state first: a job read before it ends has no return value yet.
  const state = await queue.getJobState(id);
  if (ctx.waiting.get(id) !== waiter || LIVE_JOB_STATES.has(state)) return;
  if (state === 'unknown') {
    // Redis lost it: add it again (its worker finds the checkpoint if the step had finished).
    await queue.add('step', waiter.job, { ...STEP_JOB_OPTIONS, jobId: id });
    return;
  }
  const job = await queue.getJob(id);
  if (!job || job.data.token !== waiter.token) return;
  if (state === 'completed') completed(ctx, id, waiter, job.returnvalue);
  else if (state === 'failed')
    settle(ctx, id, waiter, { error: new Error(job.failedReason || 'The step job failed.') });
}

/** Looks every `ms` at the jobs waited on, in case an end went unheard (one look at a time). */
export function recheckWaiting(ctx: StepQueueContext, ms: number): NodeJS.Timeout {
  let checking = false;
  const recheck = setInterval(() => {
    if (checking || ctx.waiting.size === 0) return;
    checking = true;
    (async () => {
      for (const [id, waiter] of [...ctx.waiting]) await look(ctx, id, waiter).catch(ctx.report);
    })().finally(() => {
      checking = false;
    });
  }, ms);
  recheck.unref();
  return recheck;
}
