/** Run stores: SQLite (embedded) and PostgreSQL (shared), both behind the `RunStore` interface in records/. */
export { PostgresRunStore, type PostgresRunStoreOptions } from './postgres-run-store.js';
export { SqliteRunStore } from './sqlite-run-store.js';
