export type { AgentEvent, AgentEventType, EventBase, EventOf, WorkspacePayload } from './agent-event.js';
export { analyzeText, hasCjk, isCjkToken, queryTerms, textTokens } from './analyze-text.js';
export { expressionIn, normalizeExpression } from './arithmetic-input.js';
export { concatBytes } from './concat-bytes.js';
export {
  contentText,
  describePart,
  estimateMediaTokens,
  mediaParts,
  reasoningText,
  withoutBom,
} from './content-text.js';
export { describeCompaction } from './describe-compaction.js';
export {
  ConfigError,
  type ErrorCode,
  errorMessage,
  ForkError,
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
export { andThen, isThenable, type MaybePromise } from './maybe-promise.js';
export {
  ContentPart,
  FilePart,
  ImagePart,
  Message,
  MessageContent,
  ProviderItem,
  ReasoningPart,
  TextPart,
  ToolCall,
} from './message.js';
export {
  FinishReason,
  type JsonSchema,
  type ModelChunk,
  type ModelRequest,
  ModelResponse,
  ProviderCompaction,
  type ResponseFormat,
  type ToolSpec,
  Usage,
} from './model-types.js';
export { mulberry32 } from './mulberry32.js';
export { namePart } from './name-part.js';
export { issuedRightAfter, LAST_RUN_ID_COUNTER, newRunId, RUN_ID_COUNTER_DIGITS } from './new-run-id.js';
// Node built-ins reached lazily, so the core bundles for browsers and Workers (#38).
export { maybeNodeBuiltin, nodeBuiltin, processEnv, writeStderr } from './node-builtin.js';
export { type LenientJson, type LenientJsonOptions, parseJsonLenient } from './parse-json-lenient.js';
export { parseJsonObject } from './parse-json-object.js';
export {
  type ActionInput,
  type FinalReply,
  type InvalidReply,
  type ParsedStep,
  REPLY_HABITS,
  type ReadReply,
  type ReadToolCall,
  type ReplyHabit,
  type TextToolCall,
} from './parsed-step.js';
export { plural } from './plural.js';
export { abortableChannel, createPushChannel, type PushChannel } from './push-channel.js';
export { KEYWORD_SPELLINGS, type ReActKeyword } from './react-keywords.js';
export {
  mayHoldSecret,
  redactedIfSecret,
  redactedJson,
  redactSecrets,
  redactText,
  SECRET_SHAPES,
} from './redact-secrets.js';
export {
  addStats,
  emptyStats,
  type ForkedFrom,
  type RunError,
  type RunResult,
  type RunStats,
  type RunStatus,
  type RunUsage,
} from './run-result.js';
export { runSoon, yieldTurn } from './run-soon.js';
export { sha256Hex } from './sha256-hex.js';
export { squash } from './squash.js';
export { stableJson } from './stable-json.js';
export type { Step, ToolCallRecord } from './step.js';
export type { ApprovalAnswer, JournalStep, StepJournal } from './step-journal.js';
export {
  TOOL_NAME_RULES,
  type ToolNameRule,
  type ToolNameVendor,
  toolNameAliases,
  wireToolName,
} from './wire-tool-name.js';
export { withFields } from './with-fields.js';
