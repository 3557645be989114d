import type { Usage } from '../../../core/index.js';
import type { OpenAIUsage } from './wire-schema.js';

/**
 * Reads chat-completions usage, or undefined when the counts are missing. Cached prompt tokens come
 * from `prompt_tokens_details.cached_tokens` (DeepSeek: `prompt_cache_hit_tokens`) and reasoning
 * tokens from `completion_tokens_details.reasoning_tokens`. OpenAI counts reasoning inside
 * `completion_tokens`; xAI counts it apart (prompt 12, completion 2, reasoning 340, total 354), which
 * shows as a total larger than prompt + completion: then reasoning is added to the completion, so
 * budgets and cost see every token.
 */
export function readOpenAIUsage(usage: OpenAIUsage): Usage | undefined {
  if (usage?.prompt_tokens == null || usage.completion_tokens == null) return undefined;
  const out: Usage = { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens };
  const reasoning = usage.completion_tokens_details?.reasoning_tokens ?? 0;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ?? 0;
  const total = usage.total_tokens;
  if (reasoning > 0 && total != null && total >= out.promptTokens + out.completionTokens + reasoning) {
    out.completionTokens += reasoning;
  }
  if (reasoning > 0) out.reasoningTokens = reasoning;
  if (cached > 0) out.cacheReadTokens = cached;
  return out;
}
