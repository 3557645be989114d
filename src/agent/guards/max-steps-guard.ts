import type { StopReason } from './stop-reason.js';

/** Stops when the run has used all its steps. */
export function maxStepsGuard(stepsTaken: number, maxSteps: number): StopReason | undefined {
  if (stepsTaken < maxSteps) return undefined;
  return {
    status: 'max_steps',
    code: 'max_steps',
    message: `The run reached maxSteps (${maxSteps}) without a final answer.`,
  };
}
