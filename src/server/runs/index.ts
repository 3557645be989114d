/** Running and following runs: the local run service, one run's execution, continuation, forks, answers, retention, waiting for a run and following its events. */
export { schemaOf } from './caller-run-options.js';
export { type ChangeSignal, createChangeSignal } from './change-signal.js';
export { answerCalls, type CallAnswer, continueAfterQuestion, type RunContinuation } from './continue-run.js';
export { createLocalRuns, type LocalRuns, type LocalRunsOptions } from './create-local-runs.js';
export { type EngineRunRecorder, type EngineRunsOptions, engineRunRecorder, engineRuns } from './engine-runs.js';
export { executeRun } from './execute-run.js';
export {
  type ChangeWatch,
  followAnswerParts,
  followEventPages,
  followEvents,
  waitForEnd,
  watchChanges,
} from './follow-run.js';
export { keepConversation } from './keep-conversation.js';
export { createDeltaRedactor } from './redact-deltas.js';
export {
  DEFAULT_RETENTION_DAYS,
  type Retention,
  type RetentionConfig,
  retentionRequest,
  startRetention,
} from './retention.js';
export { type RunStoreJournal, type RunStoreJournalOptions, runStoreJournal } from './run-store-journal.js';
export { onceForKey } from './start-once.js';
export { type StoreRuns, type StoreRunsContext, storeRuns } from './store-runs.js';
export { type AnswerEnd, type AnswerUsage, collectRunAnswer, lastSeq, streamRunAnswer } from './stream-run-answer.js';
export { endUnstarted } from './synthetic-result.js';
