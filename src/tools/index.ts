export { type A2aAgentToolOptions, a2aAgentTool } from './a2a/a2a-agent-tool.js';
export {
  A2A_ERRORS,
  A2A_FINAL_STATES,
  A2aAgentCard,
  A2aArtifact,
  A2aMessage,
  A2aPart,
  A2aResult,
  A2aSendParams,
  A2aTask,
  A2aTaskQuery,
  A2aTaskState,
  A2aV1SendParams,
  a2aText,
  fromV1SendParams,
  JsonRpcRequest,
  jsonRpcIdOf,
  toV1StreamResponse,
  toV1Task,
} from './a2a/a2a-wire-schema.js';
export { type ApprovalGate, type Approver, createApprovalGate } from './approval-gate.js';
export {
  askUserTool,
  type BuiltinOptions,
  calculate,
  calculatorTool,
  convertUnits,
  convertUnitsTool,
  currentTimeTool,
  datetimeTools,
  demoHolidayTool,
  demoMovieTool,
  demoSearchTool,
  demoTools,
  demoWeatherTool,
  unitTools,
  type WebSearchProvider,
  type WebSearchResult,
  webSearchTool,
} from './builtins/index.js';
export { type CallScheduler, createCallScheduler } from './call-scheduler.js';
export { closestNames, editDistance } from './closest-names.js';
export { type CoercedArguments, coerceArguments } from './coerce-arguments.js';
export { formatInputIssues } from './format-input-issues.js';
export { type JsonSchemaToolOptions, jsonSchemaTool } from './json-schema-tool.js';
export { mcpContentText } from './mcp/mcp-content-text.js';
export type {
  NestedCallHooks,
  NestedCallOutcome,
  NestedCallRecord,
  NestedCalls,
  NestedJournal,
  NestedToolSource,
} from './nested-calls.js';
export { toJsonValue } from './nested-calls.js';
export { normalizeToolName } from './normalize-tool-name.js';
export { isRetryableError, RetryableToolError } from './retryable-tool-error.js';
export { runWithTimeLimit, TimeLimitError } from './run-with-time-limit.js';
export { runWithTimeout, sleep, type TimedOutcome } from './run-with-timeout.js';
export { serializeOutput } from './serialize-output.js';
export type { ToolExecution } from './stream-execution.js';
export { synthesizeExample } from './synthesize-example.js';
export {
  type AnyTool,
  type ApprovalRequest,
  type DefineToolOptions,
  defineTool,
  type Logger,
  type ParentRun,
  type Tool,
  type ToolAnnotations,
  type ToolContext,
  type ToolInputIssue,
  type ToolInputResult,
} from './tool.js';
export {
  createToolExecutor,
  type ExecuteOptions,
  type ToolExecutor,
  type ToolExecutorOptions,
} from './tool-executor.js';
export type { ElicitRequest, ElicitResult, LogLevel, SampleMessage, SampleRequest, SampleResult } from './tool-peer.js';
export type { ToolCallInput, ToolEndRecord, ToolErrorKind, ToolStartRecord } from './tool-records.js';
export { type ToolLookup, ToolRegistry } from './tool-registry.js';
export { charsWithinTokens, clearedResult, recallHint, truncateObservation } from './truncate-observation.js';
