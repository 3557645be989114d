import type { ApprovalAnswer, Message } from '../core/index.js';

/** A run to start on an engine, as thinkflow's server asks for it. */
export interface EngineStart {
  agent: string;
  input: string;
  history?: Message[];
}

/**
 * What thinkflow's server needs of a durable engine to serve its runs (the run routes, the approval
 * route, Studio): start a run, resolve what it waits for, cancel it. The runs' records and events
 * reach the server's store from the workers (`engineRunRecorder` in `thinkflow/server`).
 */
export interface EngineClient {
  /** `restate`, `dbos`, … */
  readonly engine: string;
  /** Starts a run and resolves with its id (the engine's: a Restate invocation id, a DBOS workflow id). */
  start(run: EngineStart): Promise<string>;
  /** Resolves the wait `answerId` of run `runId`: `{ approved }` for an approval, a string for a question. */
  answer(runId: string, answerId: string, answer: ApprovalAnswer | string): Promise<void>;
  /** Cancels a run through the engine (the run ends aborted). */
  cancel(runId: string): Promise<void>;
}
