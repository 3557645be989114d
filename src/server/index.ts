export { ApiToken, type AuthConfig, tokenPrincipal } from './caller/index.js';
export { ChatCompletionBody, ResponsesBody, RunAgentInput, UiMessage, UiStreamBody } from './clients/index.js';
export { defineConfig, loadConfig, type StoreConfig, type ThinkflowConfig } from './config/index.js';
export { type CreateAppOptions, createApp, type ThinkflowApp } from './create-app.js';
export type { Readiness, ServerLimits } from './health/index.js';
export {
  type Backoff,
  backoffDelay,
  createLogThrottle,
  type Dependency,
  DependencyUnavailableError,
  isDependencyUnavailable,
  type LogThrottle,
} from './health/index.js';
export type { Caller } from './http/index.js';
export type {
  McpCatalog,
  McpCompleter,
  McpFetchHandler,
  McpFetchHandlerOptions,
  McpHttpServing,
  McpPrompt,
  McpPromptMessage,
  McpResource,
  McpResourceBody,
  McpResourceTemplate,
  McpServerInfo,
  McpServing,
  McpSessionLimits,
  McpTransportOptions,
  ServeMcpOptions,
} from './mcp/index.js';
export {
  AudioPart,
  createMcpServer,
  McpContentPart,
  mcpFetchHandler,
  ResourceLinkPart,
  ResourcePart,
  serveMcp,
} from './mcp/index.js';
export type {
  QueueLocation,
  QueueRunsOptions,
  RunWorker,
  RunWorkerOptions,
  StepQueue,
  StepQueueOptions,
  WorkflowWorker,
  WorkflowWorkerOptions,
} from './queue/index.js';
export { createQueueRuns, createRunWorker, createWorkflowWorker, queueStepDispatch } from './queue/index.js';
export type {
  AgentEntry,
  AgentRunContext,
  Answer,
  AnswerResult,
  ChangeResult,
  DatasetInfo,
  DatasetRow,
  DatasetVersion,
  EvalStore,
  ForkRequest,
  ForkResult,
  ForkStart,
  IdempotencyClaim,
  IdempotencyRequest,
  RecoverableRun,
  RewindResult,
  RunQueueStore,
  RunService,
  RunStore,
  ServableAgent,
  StartRequest,
  StartResult,
} from './records/index.js';
export {
  CallerOptions,
  ClientTool,
  DatasetChange,
  DatasetRowData,
  isFinished,
  PendingQuestion,
  type PruneRequest,
  type PruneResult,
  RunFork,
  RunJournalEntry,
  RunJournalRecord,
  RunPage,
  type RunPatch,
  type RunQuery,
  RunRecord,
  RunScore,
  RunSource,
  RunStoreStats,
  RunSummary,
  ServerRunStatus,
  type StoredEvent,
} from './records/index.js';
export type { HookConfig } from './routes/index.js';
export {
  AddToDatasetBody,
  ApprovalBody,
  CreateDatasetBody,
  DatasetRowsBody,
  ForkRunBody,
  ListRunsQuery,
  RewindRunBody,
  StartRunBody,
} from './routes/index.js';
export {
  createLocalRuns,
  DEFAULT_RETENTION_DAYS,
  type EngineRunRecorder,
  type EngineRunsOptions,
  engineRunRecorder,
  engineRuns,
  type LocalRuns,
  type LocalRunsOptions,
  type Retention,
  type RetentionConfig,
  type RunStoreJournal,
  type RunStoreJournalOptions,
  retentionRequest,
  runStoreJournal,
  startRetention,
} from './runs/index.js';
export {
  type AgentScoring,
  type OnlineScoringConfig,
  type ScoredRun,
  type ScoredRuns,
  type ScoreRunsContext,
  scoreRuns,
} from './runs/node.js';
export {
  type Cron,
  type CronResult,
  nextCronTime,
  type ParseCronOptions,
  parseCron,
  type ScheduleConfig,
  startSchedules,
} from './schedules/index.js';
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
export {
  apiTokens,
  openEvalStore,
  openStore,
  type RunningServer,
  type ServeOptions,
  serve,
  serverSessionsFile,
} from './serve.js';
export {
  memoryRunStore,
  PostgresEvalStore,
  type PostgresEvalStoreOptions,
  PostgresRunStore,
  type PostgresRunStoreOptions,
} from './stores/index.js';
export { SqliteEvalStore, SqliteRunStore } from './stores/node.js';
export {
  type WorkflowRuns,
  type WorkflowRunsOptions,
  type WorkflowRunView,
  type WorkflowStartContext,
  type WorkflowStartResult,
  workflowRuns,
} from './workflows/index.js';
export { WorkspaceSpec, withRunWorkspace } from './workspaces/index.js';
