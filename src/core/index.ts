export type { AgentEvent, AgentEventType, EventBase, EventOf } from './agent-event.js';
export {
  ConfigError,
  type ErrorCode,
  errorMessage,
  isModelError,
  isThinkflowError,
  ModelError,
  type ModelErrorOptions,
  StoreError,
  ThinkflowError,
} from './errors.js';
export {
  assertPeers,
  importOptional,
  missingPeerError,
  OPTIONAL_FEATURES,
  type OptionalFeature,
  type OptionalFeatureId,
  packageName,
  requireDependency,
  requireOptional,
} from './load-optional.js';
export { Message, ToolCall } from './message.js';
export {
  FinishReason,
  type JsonSchema,
  type ModelChunk,
  type ModelRequest,
  ModelResponse,
  type ToolSpec,
  Usage,
} from './model-types.js';
export type { ActionInput, ParsedStep } from './parsed-step.js';
export {
  emptyStats,
  type RunError,
  type RunResult,
  type RunStats,
  type RunStatus,
  type RunUsage,
} from './run-result.js';
export type { Step, ToolCallRecord } from './step.js';
export { withFields } from './with-fields.js';
