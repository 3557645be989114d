// Durable runs: finish a step left pending by a crash, fork a run from a checkpoint.
export { finishPendingStep } from './finish-pending-step.js';
export { type ForkMessages, type ForkOptions, type ForkSource, forkCheckpoint, messagesBefore } from './fork-run.js';
