/**
 * thinkflow: build LLM agents from first principles.
 * Every public name is listed here on purpose.
 */
export {
  Agent,
  type AgentOptions,
  type Budget,
  type Checkpoint,
  type RunOptions,
  type StepOverrides,
  type StepState,
} from './agent/index.js';
export type { AgentEvent, AgentEventType, EventBase, EventOf } from './core/index.js';
export {
  ConfigError,
  type ErrorCode,
  errorMessage,
  isModelError,
  isThinkflowError,
  type JsonSchema,
  Message,
  type ModelChunk,
  ModelError,
  type ModelRequest,
  ModelResponse,
  type ParsedStep,
  type RunResult,
  type RunStats,
  type RunStatus,
  type RunUsage,
  type Step,
  StoreError,
  ThinkflowError,
  ToolCall,
  type ToolCallRecord,
  type ToolSpec,
  Usage,
} from './core/index.js';
export {
  type Model,
  type ModelCapabilities,
  demoModel,
  type OpenAICompatibleOptions,
  openaiCompatible,
  type RetryOptions,
  type ScriptedModel,
  type ScriptedReply,
  scriptedModel,
} from './llm/index.js';
export {
  type BuildPromptOptions,
  type BuiltPrompt,
  buildPrompt,
  getProtocol,
  jsonProtocol,
  type Language,
  nativeProtocol,
  PLAIN_ANSWER_MAX_CHARS,
  type PromptContext,
  type Protocol,
  type ProtocolName,
  parseJsonAction,
  parseReAct,
  type ReadReply,
  type ReadToolCall,
  reactProtocol,
  renderPrompt,
} from './protocols/index.js';
export { type AnyTool, defineTool, type Tool, type ToolContext } from './tools/index.js';
