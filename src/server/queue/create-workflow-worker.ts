import type { Job, Worker } from 'bullmq';
import { type AgentEvent, assertPeers, errorMessage } from '../../core/index.js';
import {
  runStepJob,
  StepInputError,
  type StepJobContext,
  type Workflow,
  type WorkflowStore,
} from '../../workflow/index.js';
import { backoffDelay, isDependencyUnavailable, retryWhileUnavailable, stderrErrors } from '../health/index.js';
import { createWorkflowEventLog } from '../workflows/index.js';
import { handBack, loadBullmq, lockOptions, stepQueueSettings, type WorkerOptions } from './queue-names.js';
import { QueuedStep, type QueuedStepResult } from './queued-step.js';

/** Options of `createWorkflowWorker`. */
export interface WorkflowWorkerOptions extends WorkerOptions {
  /** The workflows whose steps this worker runs (the config's `workflows`), as the engine has them. */
  workflows: Record<string, Workflow> | readonly Workflow[];
  /** The store the engine checkpoints its runs in: PostgreSQL, shared with the engine. */
  store: WorkflowStore;
}

export interface WorkflowWorker {
  /** Stops taking step jobs; steps that stop at the abort go back on the queue for another worker. */
  close(): Promise<void>;
}

/**
 * Runs the leaf steps that workflow runs in queue mode send to BullMQ (`queueStepDispatch`): each job
 * is one step, run with the engine's own step code, checkpointed in the shared store and returned. A
 * job whose step is already done in the store (its first worker died after the commit) returns that
 * checkpoint without running the step again. `thinkflow worker` starts one when its config has workflows.
 */
export function createWorkflowWorker(options: WorkflowWorkerOptions): WorkflowWorker {
  assertPeers('queue');
  const settings = stepQueueSettings(options);
  const report = options.onError ?? stderrErrors('thinkflow workflow worker');
  const workflows = new Map<string, Workflow>();
  for (const workflow of Object.values(options.workflows))
    if (!workflows.has(workflow.id)) workflows.set(workflow.id, workflow);
  const closing = new AbortController();
  // A checkpoint waits through a PostgreSQL outage and is written late, rather than the step running again.
  const wait = <T>(call: () => Promise<T>) =>
    retryWhileUnavailable(call, { maxMs: 2000, signal: closing.signal, onRetry: (error) => report(error) });
  const base = options.store;
  const store: StepJobContext['store'] = {
    loadSteps: (runId) => wait(() => base.loadSteps(runId)),
    loadStepsAt: base.loadStepsAt && ((runId, paths) => wait(() => base.loadStepsAt!(runId, paths))),
    saveStep: (runId, path, record) => wait(async () => base.saveStep(runId, path, record)),
  };
  // The steps' events go to the store's event log (redacted, a commit per run per tick), as the engine's do.
  const log = base.appendEvents
    ? createWorkflowEventLog({ store: { appendEvents: base.appendEvents.bind(base) }, onError: report })
    : undefined;
  const active = new Set<AbortController>();
  let stopping = false;

  async function process(job: Job<QueuedStep>, token?: string): Promise<QueuedStepResult> {
    const parsed = QueuedStep.safeParse(job.data);
    if (!parsed.success) throw new Error(`Job "${job.id}" is not a workflow step job: ${parsed.error.message}`);
    const step = parsed.data;
    const controller = new AbortController();
    active.add(controller);
    const emit = log && ((event: AgentEvent) => log.add(step.runId, event));
    try {
      const result = await runStepJob({ workflows, store, signal: controller.signal, emit }, step);
      return { ...result, token: step.token };
    } catch (error) {
      // A value the step's schemas refused: the run ends as it would in the engine's process.
      if (error instanceof StepInputError) {
        report(new Error(`Step ${step.path} of run "${step.runId}" failed: ${error.message}`));
        return { token: step.token, refused: { message: error.message } };
      }
      // Stopped by a shutdown: another worker runs it (an agent step resumes from its own checkpoint).
      if (stopping && controller.signal.aborted) return handBack(job, token, 0);
      // Redis or PostgreSQL went away under the step: not the step's failure.
      if (isDependencyUnavailable(error)) {
        report(error);
        return handBack(job, token, backoffDelay(job.attemptsStarted ?? 0, { baseMs: 1000, maxMs: 30_000 }));
      }
      throw error;
    } finally {
      active.delete(controller);
      // Written before the job ends, so the step's events are in the store once the engine goes on.
      await log?.flush();
    }
  }

  const worker = new (loadBullmq().Worker as typeof Worker<QueuedStep, QueuedStepResult>)(settings.name, process, {
    ...settings.options,
    concurrency: options.concurrency ?? 16,
    ...lockOptions(options),
  });
  worker.on('error', report);
  worker.on('failed', (job, error) => {
    if (!stopping && job)
      report(new Error(`Step ${job.data.path} of run "${job.data.runId}" failed: ${errorMessage(error)}`));
  });

  let closed: Promise<void> | undefined;
  return {
    close() {
      closed ??= (async () => {
        stopping = true;
        const stopped = worker.close();
        for (const controller of active) controller.abort();
        await stopped;
        closing.abort();
      })();
      return closed;
    },
  };
}
