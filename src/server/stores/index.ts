/** Run stores behind the `RunStore` interface in records/: in memory and PostgreSQL here (no Node built-in); SQLite in node.ts. */
export { memoryRunStore } from './memory-run-store.js';
export { PostgresEvalStore, type PostgresEvalStoreOptions } from './postgres-eval-store.js';
export { PostgresRunStore, type PostgresRunStoreOptions } from './postgres-run-store.js';
