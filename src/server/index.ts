export { ApiToken, type AuthConfig, tokenPrincipal } from './caller/resolve-caller.js';
export { defineConfig, type StoreConfig, type ThinkflowConfig } from './config/define-config.js';
export { loadConfig } from './config/load-config.js';
export { type CreateAppOptions, createApp, type ThinkflowApp } from './create-app.js';
export {
  type Backoff,
  backoffDelay,
  createLogThrottle,
  type Dependency,
  DependencyUnavailableError,
  isDependencyUnavailable,
  type LogThrottle,
} from './health/outage.js';
export type { Readiness } from './health/readiness.js';
export type { ServerLimits } from './health/server-limits.js';
export type { Caller } from './http/request-scope.js';
export {
  AudioPart,
  createMcpServer,
  type McpCatalog,
  type McpCompleter,
  McpContentPart,
  type McpFetchHandler,
  type McpFetchHandlerOptions,
  type McpHttpServing,
  type McpPrompt,
  type McpPromptMessage,
  type McpResource,
  type McpResourceBody,
  type McpResourceTemplate,
  type McpServerInfo,
  type McpServing,
  type McpSessionLimits,
  type McpTransportOptions,
  mcpFetchHandler,
  ResourceLinkPart,
  ResourcePart,
  type ServeMcpOptions,
  serveMcp,
} from './mcp/index.js';
export { RunAgentInput } from './protocols/ag-ui/ag-ui-wire-schema.js';
export { ChatCompletionBody } from './protocols/openai/chat-completions-route.js';
export { ResponsesBody } from './protocols/openai/responses-wire.js';
export { UiMessage, UiStreamBody } from './protocols/ui-stream/ui-stream-wire-schema.js';
export { createQueueRuns, type QueueRunsOptions } from './queue/create-queue-runs.js';
export { createRunWorker, type RunWorker, type RunWorkerOptions } from './queue/create-run-worker.js';
export {
  createWorkflowWorker,
  type WorkflowWorker,
  type WorkflowWorkerOptions,
} from './queue/create-workflow-worker.js';
export type { QueueLocation } from './queue/queue-names.js';
export { queueStepDispatch, type StepQueue, type StepQueueOptions } from './queue/queue-step-dispatch.js';
export type { IdempotencyClaim } from './records/idempotency-claim.js';
export type { Answer } from './records/question-box.js';
export {
  type PruneRequest,
  type PruneResult,
  RunPage,
  type RunQuery,
  RunStoreStats,
  RunSummary,
} from './records/run-listing.js';
export type { RecoverableRun, RunQueueStore } from './records/run-queue-store.js';
export {
  CallerOptions,
  ClientTool,
  isFinished,
  PendingQuestion,
  RunFork,
  type RunPatch,
  RunRecord,
  RunSource,
  ServerRunStatus,
  type StoredEvent,
} from './records/run-record.js';
export type {
  AnswerResult,
  ForkRequest,
  ForkResult,
  ForkStart,
  IdempotencyRequest,
  RunService,
  StartRequest,
  StartResult,
} from './records/run-service.js';
export type { RunStore } from './records/run-store.js';
export type { AgentEntry, ServableAgent } from './records/servable-agent.js';
export { ForkRunBody } from './routes/fork-route.js';
export type { HookConfig } from './routes/hook-routes.js';
export { ListRunsQuery } from './routes/list-runs-route.js';
export { ApprovalBody, StartRunBody } from './routes/run-routes.js';
export { createLocalRuns, type LocalRuns, type LocalRunsOptions } from './runs/create-local-runs.js';
export {
  DEFAULT_RETENTION_DAYS,
  type Retention,
  type RetentionConfig,
  retentionRequest,
  startRetention,
} from './runs/retention.js';
export { type Cron, type CronResult, nextCronTime, type ParseCronOptions, parseCron } from './schedules/parse-cron.js';
export { type ScheduleConfig, startSchedules } from './schedules/start-schedules.js';
export {
  type CorsConfig,
  checkApiTokens,
  envApiTokens,
  isAllowedHost,
  type Refuse,
  type SecurityConfig,
  type SecurityOptions,
  securityMiddleware,
} from './security/index.js';
export { apiTokens, openStore, type RunningServer, type ServeOptions, serve, serverSessionsFile } from './serve.js';
export { PostgresRunStore, type PostgresRunStoreOptions } from './stores/postgres-run-store.js';
export { SqliteRunStore } from './stores/sqlite-run-store.js';
export {
  type WorkflowRuns,
  type WorkflowRunsOptions,
  type WorkflowRunView,
  type WorkflowStartContext,
  type WorkflowStartResult,
  workflowRuns,
} from './workflows/workflow-runs.js';
