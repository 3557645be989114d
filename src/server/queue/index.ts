/** Queue mode: runs and workflow steps as BullMQ jobs, the workers that run them, counts, recovery, run ends. */
export { createQueueRuns } from './create-queue-runs.js';
export { createRunWorker, type RunWorker, type RunWorkerOptions } from './create-run-worker.js';
export { createWorkflowWorker, type WorkflowWorker, type WorkflowWorkerOptions } from './create-workflow-worker.js';
export type { QueueLocation } from './queue-names.js';
export type { QueueRunsOptions } from './queue-runs-context.js';
export { queueStepDispatch, type StepQueue, type StepQueueOptions } from './queue-step-dispatch.js';
