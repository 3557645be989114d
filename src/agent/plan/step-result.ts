import type { RunStatus } from '../../core/index.js';

/** One executed plan step: what was asked, how the executor's run ended, and its answer. */
export interface StepResult {
  step: string;
  /** The executor run's id (its events carry it). */
  runId: string;
  status: RunStatus;
  output: string;
  /** Why the executor's run did not end `done`. */
  error?: string;
}
