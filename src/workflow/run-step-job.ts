import type { AgentEvent } from '../core/index.js';
import type { Workflow } from './create-workflow.js';
import { nodeAt } from './execute-workflow.js';
import { emptyUsage, type LeafContext, runLeaf } from './run-leaf.js';
import { SignalStop } from './run-lease.js';
import type { StepJob, StepJobResult } from './step-job.js';
import type { WorkflowStore } from './workflow-types.js';

/** A step job this process cannot run: it names a workflow, definition or step it does not have. */
export class StepJobError extends Error {
  override name = 'StepJobError';
  constructor(
    message: string,
    readonly code: 'unknown_workflow' | 'definition_changed' | 'unknown_step',
  ) {
    super(message);
  }
}

/** What a worker runs step jobs with. */
export interface StepJobContext {
  /** The workflows whose steps this process runs, by workflow id. */
  workflows: ReadonlyMap<string, Workflow>;
  /** The store the engine checkpoints the run in (shared: PostgreSQL). */
  store: Pick<WorkflowStore, 'loadSteps' | 'saveStep' | 'loadStepsAt'>;
  signal: AbortSignal;
  /** Gets the events the step emits (`step_start`, an agent's events, `step_end`); absent, none are built. */
  emit?: (event: AgentEvent) => void;
}

/**
 * Runs the step a job names and returns the checkpoint it wrote. A job delivered again (its first
 * worker died after the checkpoint was committed) finds the step done in the store and returns that,
 * so a step completes once however often its job is delivered.
 */
export async function runStepJob(ctx: StepJobContext, job: StepJob): Promise<StepJobResult> {
  const workflow = ctx.workflows.get(job.workflowId);
  if (!workflow)
    throw new StepJobError(
      `This worker has no workflow "${job.workflowId}" (step ${job.path} of run "${job.runId}"): add it to the config's workflows.`,
      'unknown_workflow',
    );
  if (workflow.definitionHash !== job.definitionHash)
    throw new StepJobError(
      `Run "${job.runId}" executes workflow "${job.workflowId}" under definition ${job.definitionHash}, but this worker has ${workflow.definitionHash}: ` +
        'deploy the same definition to the workers and to the process that runs the workflow.',
      'definition_changed',
    );
  const step = nodeAt(workflow, job.path)?.step;
  if (!step || step.workflow || step.id !== job.stepId)
    throw new StepJobError(
      `Workflow "${job.workflowId}" has no step "${job.stepId}" at ${job.path} on this worker.`,
      'unknown_step',
    );
  // The step's own checkpoint and its agent state: a foreach item's job does not read its 199 siblings'.
  const mine = [job.path, `${job.path}~state`];
  const steps = ctx.store.loadStepsAt
    ? await ctx.store.loadStepsAt(job.runId, mine)
    : await ctx.store.loadSteps(job.runId);
  const found = steps[job.path];
  if (found?.status === 'done') return { record: found, usage: found.usage ?? emptyUsage() };
  if (found?.status === 'suspended' && !job.resume) return { record: found, usage: emptyUsage() };
  const leaf: LeafContext = {
    run: { id: job.runId, workflowId: job.workflowId },
    store: ctx.store,
    steps,
    usage: emptyUsage(),
    suspended: [],
    emit: ctx.emit,
    stop: new SignalStop(ctx.signal),
  };
  await runLeaf(leaf, { step, path: job.path, input: job.input, n: job.step, resume: job.resume });
  const record = steps[job.path];
  if (record?.status !== 'done' && record?.status !== 'suspended')
    throw new Error(`Step ${job.path} of run "${job.runId}" ended without a checkpoint.`);
  return { record, usage: leaf.usage };
}
