import { z } from 'zod';
import { type Message, ProviderItem, ReasoningPart, ToolCall } from './message.js';

/**
 * Token counts for one model call. `estimated` is set when the provider did not report them.
 * Every token is in `promptTokens + completionTokens`, however the vendor splits them: prompt tokens
 * include those read from or written to the prompt cache, and completion tokens include reasoning
 * tokens (xAI reports these apart; Anthropic reports cache tokens apart). The detail fields say how
 * many of them were which, so cost can price them and traces can show them.
 */
export const Usage = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  estimated: z.boolean().optional(),
  /** Of `completionTokens`, how many the model spent reasoning. */
  reasoningTokens: z.number().optional(),
  /** Of `promptTokens`, how many were served from the provider's prompt cache. */
  cacheReadTokens: z.number().optional(),
  /** Of `promptTokens`, how many were written to the prompt cache (Anthropic bills these higher). */
  cacheWriteTokens: z.number().optional(),
});
export type Usage = z.infer<typeof Usage>;

export const FinishReason = z.enum(['stop', 'length', 'tool_calls', 'content_filter', 'error', 'other']);
export type FinishReason = z.infer<typeof FinishReason>;

/**
 * A compaction the provider made on its side while answering (OpenAI Responses `context_management`
 * compaction, Anthropic context editing): the vendor's kind, and what it cleared when it says.
 */
export const ProviderCompaction = z.object({
  /** The vendor's name for it: `compaction`, `clear_tool_uses_20250919`, ... */
  kind: z.string(),
  /** Prompt tokens it removed, when the provider reports them (Anthropic's `cleared_input_tokens`). */
  clearedTokens: z.number().optional(),
  /** Tool uses it cleared, when the provider reports them. */
  clearedToolUses: z.number().optional(),
});
export type ProviderCompaction = z.infer<typeof ProviderCompaction>;

/** What a model answered. `toolCalls` hold raw argument strings; parsing them is the tool layer's job. */
export const ModelResponse = z.object({
  text: z.string(),
  toolCalls: z.array(ToolCall).optional(),
  /** The model's reasoning (thinking), kept apart from `text` and sent back on the next turn. */
  reasoning: z.array(ReasoningPart).optional(),
  /** The provider's own items to send back as they came (compaction items, hosted tool search). */
  providerItems: z.array(ProviderItem).optional(),
  /** Compactions the provider made on its side for this reply (the loop emits `context_compact` with kind `provider`). */
  compactions: z.array(ProviderCompaction).optional(),
  usage: Usage.optional(),
  finishReason: FinishReason.optional(),
  /** Which model produced this reply (set by fallbackModels and providers). */
  modelId: z.string().optional(),
  /** Set by `cachedModel` when the reply came from its cache (the loop emits `cache_hit` and counts no cost). */
  cached: z.boolean().optional(),
  /** The cache key of a cached reply (set with `cached`). */
  cacheKey: z.string().optional(),
});
export type ModelResponse = z.infer<typeof ModelResponse>;

/** JSON Schema object, as sent to providers. */
export type JsonSchema = Record<string, unknown>;

/** A tool as a provider sees it: name, description and a JSON Schema for its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
  /** JSON Schema of the output, when the tool declares one (code mode types `tools.x(…)` with it). */
  output?: JsonSchema;
  /** False when code mode's programs may not call the tool. */
  callableFromCode?: false;
}

/** One request to a model. */
export interface ModelRequest {
  messages: Message[];
  tools?: ToolSpec[];
  temperature?: number;
  /** Nucleus sampling: only the most likely tokens whose probabilities add up to this. */
  topP?: number;
  maxTokens?: number;
  stop?: string[];
  signal?: AbortSignal;
  /**
   * The reply protocol the prompt asks for. Local providers (`llamaCpp`) use it to constrain decoding
   * with a grammar built from `tools`, so every reply parses; remote providers ignore it.
   */
  protocol?: 'native' | 'json' | 'react' | 'code';
  /**
   * The tools the prompt text describes, for the json and react protocols (where `tools` stays empty so
   * HTTP providers send none). Local providers constrain decoding to exactly these tools.
   */
  promptTools?: ToolSpec[];
  /**
   * Ask the provider for a reply that is JSON matching this schema (OpenAI `response_format`,
   * Anthropic a forced tool, Gemini `responseSchema`, Ollama `format`). Sent only with no `tools`.
   */
  responseFormat?: ResponseFormat;
}

/** A JSON Schema the reply must follow, by name (OpenAI requires one). */
export interface ResponseFormat {
  name: string;
  schema: JsonSchema;
  /** Ask for strict schema adherence where the vendor offers it. Default false. */
  strict?: boolean;
}

/** A streamed piece of a reply. The last chunk is always `response`, holding the whole reply. */
export type ModelChunk =
  | { type: 'text_delta'; text: string }
  | { type: 'reasoning_delta'; text: string }
  | { type: 'tool_call_delta'; index: number; id?: string; name?: string; argumentsDelta: string }
  | { type: 'response'; response: ModelResponse };
