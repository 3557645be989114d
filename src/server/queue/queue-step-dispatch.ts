import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import { z } from 'zod';
import { assertPeers } from '../../core/index.js';
import { type StepDispatch, StepInputError, StepJob, StepJobResult } from '../../workflow/index.js';
import { stderrErrors } from '../health/index.js';
import { loadBullmq, type QueueLocation, stepQueueSettings } from './queue-names.js';
import { LIVE_JOB_STATES } from './recover-runs.js';

/** A step job as it waits in Redis: the step, and the token of the dispatch that added it. */
export const QueuedStep = StepJob.extend({ token: z.string() });
export type QueuedStep = z.infer<typeof QueuedStep>;

/**
 * What a worker returns for a step job: the checkpoint, with the token of the job it ran; or, for a
 * value the step's schemas refused, that failure (so the run ends `invalid_step_value` as it does
 * when the step runs in the engine's process; any other throw fails the job).
 */
export const QueuedStepResult = z.union([
  StepJobResult.extend({ token: z.string() }),
  z.object({ token: z.string(), refused: z.object({ message: z.string() }) }),
]);
export type QueuedStepResult = z.infer<typeof QueuedStepResult>;

/**
 * One attempt: a step that throws fails its run with its message (a resume runs it again), never a
 * retry storm. A dead worker's job is not an attempt: the stalled check hands it to another worker.
 * Ended jobs are kept a while, so an engine that looks late still finds how its step ended.
 */
const STEP_JOB_OPTIONS = { attempts: 1, removeOnComplete: { age: 3600 }, removeOnFail: { age: 86_400 } } as const;

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

interface Waiter {
  token: string;
  job: QueuedStep;
  resolve(result: StepJobResult): void;
  reject(error: unknown): void;
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
  const queue = new (bullmq.Queue as typeof Queue<QueuedStep>)(settings.name, settings.options);
  // One stream reader for every step this process waits on, rather than a poll per step.
  const events = new bullmq.QueueEvents(settings.name, settings.options);
  const report = options.onError ?? stderrErrors('thinkflow workflow steps');
  queue.on('error', report);
  events.on('error', report);
  const listening = events.waitUntilReady();
  listening.catch(() => {});
  const waiting = new Map<string, Waiter>();

  const settle = (id: string, waiter: Waiter, outcome: { result: StepJobResult } | { error: unknown }) => {
    if (waiting.get(id) !== waiter) return;
    waiting.delete(id);
    if ('result' in outcome) waiter.resolve(outcome.result);
    else waiter.reject(outcome.error);
  };
  const completed = (id: string, waiter: Waiter, value: unknown) => {
    const parsed = QueuedStepResult.safeParse(value);
    if (!parsed.success) {
      const error = new Error(
        `The worker's answer for step ${waiter.job.path} of run "${waiter.job.runId}" is not a step result: ${parsed.error.message}`,
      );
      return settle(id, waiter, { error });
    }
    // An earlier dispatch of this step (before a resume) may end late on the stream: not this one's.
    if (parsed.data.token !== waiter.token) return;
    if ('refused' in parsed.data) return settle(id, waiter, { error: new StepInputError(parsed.data.refused.message) });
    const { token: _, ...result } = parsed.data;
    settle(id, waiter, { result });
  };

  events.on('completed', ({ jobId, returnvalue }) => {
    const waiter = waiting.get(jobId);
    if (waiter) completed(jobId, waiter, returnvalue);
  });
  // The event carries no token: the job says whether it is this dispatch's.
  events.on('failed', ({ jobId }) => {
    const waiter = waiting.get(jobId);
    if (waiter) look(jobId, waiter).catch(report);
  });

  /** Adds the step's job, or waits on the live one an earlier dispatch (before a restart) added. */
  async function enqueue(id: string, waiter: Waiter): Promise<void> {
    const existing = await queue.getJob(id);
    if (existing) {
      const state = await existing.getState();
      if (LIVE_JOB_STATES.has(state)) {
        waiter.token = existing.data.token;
        return;
      }
      // Ended (a failure a resume retries, a suspend a resume continues): the id is free once it goes.
      await existing.remove();
    }
    await queue.add('step', waiter.job, { ...STEP_JOB_OPTIONS, jobId: id });
  }

  /** Reads how the step's job stands, for an end the event stream did not bring. */
  async function look(id: string, waiter: Waiter): Promise<void> {
    // The state first: a job read before it ends has no return value yet.
    const state = await queue.getJobState(id);
    if (waiting.get(id) !== waiter || LIVE_JOB_STATES.has(state)) return;
    if (state === 'unknown') {
      // Redis lost it: add it again (its worker finds the checkpoint if the step had finished).
      await queue.add('step', waiter.job, { ...STEP_JOB_OPTIONS, jobId: id });
      return;
    }
    const job = await queue.getJob(id);
    if (!job || job.data.token !== waiter.token) return;
    if (state === 'completed') completed(id, waiter, job.returnvalue);
    else if (state === 'failed') settle(id, waiter, { error: new Error(job.failedReason || 'The step job failed.') });
  }

  let checking = false;
  const recheck = setInterval(() => {
    if (checking || waiting.size === 0) return;
    checking = true;
    (async () => {
      for (const [id, waiter] of [...waiting]) await look(id, waiter).catch(report);
    })().finally(() => {
      checking = false;
    });
  }, options.recheckMs ?? 10_000);
  recheck.unref();

  const dispatch: StepDispatch = async (step, signal) => {
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
    waiting.set(id, waiter);
    const onAbort = () => {
      settle(id, waiter, { error: signal.reason });
      // Still waiting for a worker, it need not run; one already running finishes and checkpoints.
      queue.remove(id).catch(() => {});
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await enqueue(id, waiter);
      return await done;
    } catch (error) {
      settle(id, waiter, { error });
      throw error;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  };

  let closed: Promise<void> | undefined;
  return {
    dispatch,
    close() {
      closed ??= (async () => {
        clearInterval(recheck);
        for (const [id, waiter] of [...waiting]) {
          const { path, runId } = waiter.job;
          const error = new Error(
            `The step queue closed while step ${path} of run "${runId}" was out on a worker: resume the run to continue it.`,
          );
          settle(id, waiter, { error });
        }
        await events.close().catch(report);
        await queue.close().catch(report);
      })();
      return closed;
    },
  };
}
