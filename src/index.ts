/**
 * thinkflow: build LLM agents from first principles.
 * The root entry is what an agent script writes: `Agent`, `defineTool`, the providers, the built-in tools
 * of the quickstart, `scriptedModel`, and the event, result and error types. Everything else is behind a
 * subpath chosen by intent (src/entries/, package.json "exports"): `thinkflow/memory`, `thinkflow/workflow`,
 * `thinkflow/trace`, `thinkflow/protocols`, `thinkflow/tools`, `thinkflow/models`, `thinkflow/testing`,
 * `thinkflow/planning`, `thinkflow/durable`, and the integrations (`thinkflow/server`, `thinkflow/sqlite`, …).
 * api-report/ lists every entry's names; test/api-report.test.ts keeps this one at 100 names or fewer.
 * Nothing here imports a Node built-in, so the root runs on Node, Bun, Deno, Workers and in browsers.
 */
export {
  Agent,
  type AgentOptions,
  type AsToolOptions,
  type Budget,
  type Checkpoint,
  type ContextOptions,
  type EditedPrompt,
  type GuardedCall,
  type Guardrail,
  type Guardrails,
  type GuardrailVerdict,
  type Handoff,
  type MemoryOptions,
  type ModelJudgeOptions,
  modelJudge,
  type RunOptions,
  type StepOverrides,
  type StepState,
  type ToolRoutingOptions,
} from './agent/index.js';
// The events a run emits, what it returns, the messages and calls it is made of, and the errors it throws.
export {
  type AgentEvent,
  type AgentEventType,
  ConfigError,
  ContentPart,
  contentText,
  type ErrorCode,
  type EventBase,
  type EventOf,
  errorMessage,
  ForkError,
  type ForkedFrom,
  isModelError,
  isThinkflowError,
  type JsonSchema,
  Message,
  MessageContent,
  type ModelChunk,
  ModelError,
  type ModelRequest,
  ModelResponse,
  type ResponseFormat,
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
// The providers. Model utilities (prices, token counts, a reply cache) are in `thinkflow/models`.
export {
  type AnthropicOptions,
  anthropic,
  type FallbackModelsOptions,
  fallbackModels,
  type GeminiOptions,
  gemini,
  type HttpModelOptions,
  type Model,
  type OllamaOptions,
  type OpenAICompatibleOptions,
  type OpenAIResponsesOptions,
  ollama,
  openaiCompatible,
  openaiResponses,
  type RetryOptions,
  resolveModel,
  type ScriptedModel,
  type ScriptedReply,
  scriptedModel,
} from './llm/index.js';
export type { ProtocolName } from './protocols/index.js';
// Tools: the helpers that define them and the built-ins that run everywhere. The executor, the registry
// and the router are in `thinkflow/tools`; files, documents and http_get in `thinkflow/tools/node`.
export {
  type AnyTool,
  type ApprovalRequest,
  askUserTool,
  calculatorTool,
  convertUnitsTool,
  datetimeTools,
  defineTool,
  jsonSchemaTool,
  RetryableToolError,
  type Tool,
  type ToolAnnotations,
  type ToolContext,
  unitTools,
  type WebSearchProvider,
  type WebSearchResult,
  webSearchTool,
} from './tools/index.js';
