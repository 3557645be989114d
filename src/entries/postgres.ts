/**
 * `thinkflow/postgres`: the PostgreSQL run store (shared by API servers and workers), the eval stores (online scores and datasets; experiments) and long-term
 * memory store. Needs the optional peer `pg` (`npm install pg`).
 */
export { PostgresExperimentStore, type PostgresExperimentStoreOptions } from '../eval/index.js';
export { PostgresMemoryStore, type PostgresMemoryStoreOptions } from '../memory/index.js';
export {
  PostgresEvalStore,
  type PostgresEvalStoreOptions,
  PostgresRunStore,
  type PostgresRunStoreOptions,
} from '../server/index.js';
export { type PostgresWorkflowStoreOptions, postgresWorkflowStore } from '../workflow/index.js';
