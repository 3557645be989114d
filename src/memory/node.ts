/**
 * memory/'s Node face: the stores kept in SQLite (better-sqlite3, a file on disk). index.ts is the part
 * that runs on every runtime; other modules and the `thinkflow/sqlite` entry import these from here.
 */
export {
  databasePath,
  loadSqlite,
  type NewFileSettings,
  openSqlite,
  openSqliteTables,
  retryBusy,
  type SqliteLocation,
  sqliteCall,
} from './open-sqlite.js';
export { SqliteMemoryStore, type SqliteMemoryStoreOptions } from './sqlite-memory-store.js';
export { SqliteSessionStore } from './sqlite-session-store.js';
