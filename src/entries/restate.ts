/**
 * `thinkflow/restate`: runs an agent as a Restate service, each model call and tool call a `ctx.run`
 * step, approvals and questions awakeables. Needs the optional peer `@restatedev/restate-sdk`
 * (`npm install @restatedev/restate-sdk@~1.14.5`: 1.15 and later need Node 22).
 */
export type { ApprovalAnswer, JournalStep, StepJournal } from '../core/index.js';
export {
  type EngineClient,
  type PendingAnswer,
  type RestateAgentOptions,
  type RestateClientOptions,
  type RestateRunRequest,
  restateAgent,
  restateClient,
  runJournaled,
} from '../engines/index.js';
