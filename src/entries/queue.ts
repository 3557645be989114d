/**
 * `thinkflow/queue`: runs scaled out on a BullMQ queue in Redis. API servers enqueue with
 * `createQueueRuns`, `thinkflow worker` processes run with `createRunWorker`. Workflow runs send their
 * steps to workers with `queueStepDispatch`, and `createWorkflowWorker` runs them.
 * Needs the optional peers `bullmq` and `ioredis` (`npm install bullmq ioredis`).
 */
export {
  createQueueRuns,
  createRunWorker,
  createWorkflowWorker,
  type QueueLocation,
  type QueueRunsOptions,
  queueStepDispatch,
  type RecoverableRun,
  type RunQueueStore,
  type RunWorker,
  type RunWorkerOptions,
  type StepQueue,
  type StepQueueOptions,
  type WorkflowWorker,
  type WorkflowWorkerOptions,
} from '../server/index.js';
