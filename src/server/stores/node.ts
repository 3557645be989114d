/** The stores' Node face: the SQLite run store (better-sqlite3). `index.ts` holds the ones that run everywhere. */

export { SqliteEvalStore } from './sqlite-eval-store.js';
export { SqliteRunStore } from './sqlite-run-store.js';
