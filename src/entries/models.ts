/**
 * `thinkflow/models`: what is around a model beside its provider (the providers are in the root): prices
 * and costs, token counting, a reply cache, model specs (`resolveModel`'s forms), the content parts a
 * message carries, and the tool-name rules of each vendor. For writing a `Model` of your own.
 */
export {
  type CachedModelOptions,
  type CacheStore,
  cachedModel,
  cacheKey,
  memoryCacheStore,
} from '../cache/index.js';
export {
  FilePart,
  ImagePart,
  ProviderCompaction,
  ProviderItem,
  ReasoningPart,
  TextPart,
  TOOL_NAME_RULES,
  type ToolNameRule,
  type ToolNameVendor,
  toolNameAliases,
  wireToolName,
} from '../core/index.js';
export {
  costOf,
  countTokens,
  MODEL_SPEC_FORMS,
  type ModelCapabilities,
  type ModelEnv,
  ollamaAvailable,
  PRICES_AS_OF,
  type Price,
  priceOf,
  registerPrice,
  type TokenCounterKind,
  thinkflowHome,
  tokenCounterKind,
} from '../llm/index.js';
