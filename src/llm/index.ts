export { type ChaosCorruption, CORRUPTIONS } from './chaos/chaos-corruptions.js';
export type { ChaosKind, ChaosModel, ChaosModelOptions, ChaosRecord } from './chaos/chaos-model.js';
export { CHAOS_KINDS, chaosModel, mulberry32 } from './chaos/chaos-model.js';
export { countTokens, type TokenCounterKind, tokenCounterKind } from './count-tokens.js';
export { demoModel } from './demo-model.js';
export {
  estimateCompletionTokens,
  estimatePromptTokens,
  messageChars,
  roughUsage,
  withUsage,
} from './estimate-usage.js';
export { type FallbackModelsOptions, fallbackModels } from './fallback-models.js';
export { cacheShare, formatMs, usageDetail } from './format-usage.js';
export { generateToolCallId } from './generate-id.js';
export type { RetryOptions } from './http/index.js';
export type { Model, ModelCapabilities } from './model.js';
export { costOf, PRICES_AS_OF, type Price, priceOf, registerPrice } from './prices.js';
export { type AnthropicOptions, anthropic } from './providers/anthropic/index.js';
export { type GeminiOptions, gemini } from './providers/gemini/index.js';
export type { HttpModelOptions } from './providers/http-model-options.js';
export type { LlamaCppModel, LlamaCppOptions } from './providers/llamacpp/index.js';
export { findLocalModel, llamaCpp, modelsDir, ollamaAvailable } from './providers/llamacpp/index.js';
export { type OllamaOptions, ollama } from './providers/ollama/index.js';
export { type OpenAICompatibleOptions, openaiCompatible } from './providers/openai-compatible/index.js';
export { type OpenAIResponsesOptions, openaiResponses } from './providers/openai-responses/index.js';
export {
  MODEL_SPEC_FORMS,
  type ModelEnv,
  type ResolveModelOptions,
  resolveModel,
  ScriptFile,
} from './resolve-model.js';
export {
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedReply,
  type ScriptFunction,
  scriptedModel,
} from './scripted-model.js';
export { thinkflowHome } from './thinkflow-home.js';
