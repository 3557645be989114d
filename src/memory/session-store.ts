import type { Message } from '../core/index.js';

/** One stored conversation, as `list()` shows it. */
export interface SessionInfo {
  id: string;
  /** How many messages it holds. */
  messages: number;
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
}

/**
 * Where multi-turn conversations live. `agent.run(input, { sessionId })` loads the history before
 * the run and appends the turn's messages after it. `SqliteSessionStore` is the embedded default.
 */
export interface SessionStore {
  /** The session's messages, oldest first; `[]` for an unknown session. */
  load(sessionId: string): Promise<Message[]>;
  /**
   * Adds messages at the end of the session, creating it if needed. `SqliteSessionStore` stores them
   * redacted as traces are (credentials become `[redacted]`), so a later turn sees the redacted text.
   */
  append(sessionId: string, messages: Message[]): Promise<void>;
  /** Forgets the session's messages. */
  reset(sessionId: string): Promise<void>;
  /** Every session, most recently updated first. */
  list(): Promise<SessionInfo[]>;
  close?(): Promise<void>;
}
