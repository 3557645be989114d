export { type Budget, budgetGuard } from './budget-guard.js';
export { invalidStreakGuard } from './invalid-streak-guard.js';
export { maxStepsGuard } from './max-steps-guard.js';
export { observationSimilarity } from './observation-similarity.js';
export { canonicalJson, createRepetitionTracker, type RepetitionTracker } from './repetition-guard.js';
export {
  createSameObservationTracker,
  type SameObservationOptions,
  type SameObservationTracker,
} from './same-observation-guard.js';
export {
  calledTool,
  checkStopConditions,
  costOver,
  durationOver,
  maxSteps,
  type StopCondition,
  type StopDone,
  type StopState,
  stepLimitOf,
  tokensOver,
} from './stop-conditions.js';
export type { StopReason } from './stop-reason.js';
