/**
 * `thinkflow/sqlite`: the stores kept in one SQLite file (better-sqlite3, Node): long-term memory,
 * sessions, the reply cache and workflow runs. The root entry has the in-memory stores that run
 * everywhere; the HTTP API's SQLite run store is in `thinkflow/server`.
 */
export { SqliteCacheStore, withCache } from '../cache/node.js';
export {
  type SqliteLocation,
  SqliteMemoryStore,
  type SqliteMemoryStoreOptions,
  SqliteSessionStore,
} from '../memory/node.js';
export { sqliteWorkflowStore } from '../workflow/node.js';
