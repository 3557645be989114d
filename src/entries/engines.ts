/**
 * `thinkflow/engines`: the step journal for writing an engine of your own (Temporal, Inngest, …):
 * `runJournaled` runs an agent under any `StepJournal`, `memoryJournal` is the reference implementation
 * (and a way to test an agent against replay). Restate and DBOS have their own subpaths.
 */
export type { ApprovalAnswer, JournalStep, StepJournal } from '../core/index.js';
export {
  type EventMeta,
  type JournaledRunOptions,
  type JournalRecord,
  type MemoryJournal,
  memoryJournal,
  type PendingAnswer,
  runJournaled,
} from '../engines/index.js';
