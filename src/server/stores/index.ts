/** Run stores: SQLite (embedded) and PostgreSQL (shared), both behind the `RunStore` interface in records/. */

export { memoryRunStore } from './memory-run-store.js';
export { PostgresRunStore, type PostgresRunStoreOptions } from './postgres-run-store.js';
export { SqliteRunStore } from './sqlite-run-store.js';
