/** What is data: the run record and its questions, the run service contract, the store interfaces, listings. */

export {
  type ChangeResult,
  DatasetChange,
  type DatasetInfo,
  type DatasetRow,
  DatasetRowData,
  type DatasetVersion,
  type EvalStore,
  RunScore,
} from './eval-records.js';
export { type ClaimRow, claimFromRow, EXPIRED_CLAIMS_PER_CLAIM, type IdempotencyClaim } from './idempotency-claim.js';
export { newRunId } from './new-run-id.js';
export { type Answer, createQuestionBox, type QuestionBox } from './question-box.js';
export { RunJournalEntry, RunJournalRecord } from './run-journal-entry.js';
export {
  cursorAfter,
  DEFAULT_PAGE,
  DEFAULT_PRUNE_BATCH,
  MAX_PAGE,
  type PruneRequest,
  type PruneResult,
  pruneBounds,
  RunPage,
  type RunQuery,
  RunStoreStats,
  RunSummary,
  readCursor,
  summaryFromRow,
  type VacuumResult,
} from './run-listing.js';
export { isRunQueueStore, type RecoverableRun, type RunQueueStore } from './run-queue-store.js';
export {
  CallerOptions,
  ClientTool,
  isFinished,
  PendingQuestion,
  RunFork,
  type RunPatch,
  RunRecord,
  RunSource,
  ServerRunStatus,
  type StoredEvent,
  UNFINISHED,
} from './run-record.js';
export {
  type AnswerResult,
  type ForkRequest,
  type ForkResult,
  type ForkStart,
  type IdempotencyRequest,
  queuedRun,
  queueFull,
  type RewindResult,
  type RunService,
  type StartRequest,
  type StartResult,
} from './run-service.js';
export type { RunStore } from './run-store.js';
export { type AgentEntry, type AgentRunContext, resolveAgent, type ServableAgent } from './servable-agent.js';
