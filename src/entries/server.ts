/**
 * `thinkflow/server`: the HTTP API (hono), its run services and stores (SQLite), `thinkflow.config.ts`
 * (`defineConfig`, `loadConfig`) and schedules. PostgreSQL stores are in `thinkflow/postgres`, queue mode
 * in `thinkflow/queue`, MCP serving in `thinkflow/mcp`.
 */
export {
  type AgentEntry,
  type AuthConfig,
  type CreateAppOptions,
  createApp,
  createLocalRuns,
  defineConfig,
  type HookConfig,
  type LocalRuns,
  type LocalRunsOptions,
  loadConfig,
  PendingQuestion,
  type RunningServer,
  RunRecord,
  type RunService,
  type RunStore,
  type ScheduleConfig,
  type ServableAgent,
  type ServeOptions,
  type ServerLimits,
  ServerRunStatus,
  SqliteRunStore,
  type StoreConfig,
  serve,
  type ThinkflowApp,
  type ThinkflowConfig,
} from '../server/index.js';
