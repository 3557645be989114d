/**
 * `thinkflow/queue`: runs scaled out on a BullMQ queue in Redis. API servers enqueue with
 * `createQueueRuns`, `thinkflow worker` processes run with `createRunWorker`.
 * Needs the optional peers `bullmq` and `ioredis` (`npm install bullmq ioredis`).
 */
export {
  createQueueRuns,
  createRunWorker,
  type QueueLocation,
  type QueueRunsOptions,
  type RecoverableRun,
  type RunQueueStore,
  type RunWorker,
  type RunWorkerOptions,
} from '../server/index.js';
