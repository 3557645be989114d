export { capObservation } from './cap-observation.js';
export {
  type ContextFit,
  type ContextInput,
  type ContextWindow,
  type ContextWindowOptions,
  createContextWindow,
  type Summarize,
} from './context-window.js';
export { defaultBudgetFor } from './default-budget-for.js';
export { groupMessages } from './group-messages.js';
export { type CountTokens, createMessageTokens, type MessageTokens } from './message-tokens.js';
export { databasePath, openSqlite, type SqliteLocation } from './open-sqlite.js';
export type { SessionInfo, SessionStore } from './session-store.js';
export { SqliteSessionStore } from './sqlite-session-store.js';
