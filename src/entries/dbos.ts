/**
 * `thinkflow/dbos`: runs an agent as a DBOS workflow on PostgreSQL, each model call and tool call a
 * DBOS step, approvals on `DBOS.recv`, runs on a DBOS queue. Needs the optional peer
 * `@dbos-inc/dbos-sdk` (`npm install @dbos-inc/dbos-sdk`).
 */
export type { ApprovalAnswer, JournalStep, StepJournal } from '../core/index.js';
export {
  type DbosAgent,
  type DbosAgentOptions,
  type DbosRunRequest,
  dbosAgent,
  dbosClient,
  type EngineClient,
  type PendingAnswer,
  runJournaled,
} from '../engines/index.js';
