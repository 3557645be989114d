/**
 * `thinkflow/postgres`: the PostgreSQL run store (shared by API servers and workers) and long-term
 * memory store. Needs the optional peer `pg` (`npm install pg`).
 */
export { PostgresMemoryStore, type PostgresMemoryStoreOptions } from '../memory/index.js';
export { PostgresRunStore, type PostgresRunStoreOptions } from '../server/index.js';
export { type PostgresWorkflowStoreOptions, postgresWorkflowStore } from '../workflow/index.js';
