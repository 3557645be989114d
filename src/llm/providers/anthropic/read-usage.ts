import type { Usage } from '../../../core/index.js';

/** The counts read so far (a stream sends them across `message_start` and `message_delta`). */
export interface AnthropicCounts {
  input?: number;
  output?: number;
  cacheWrite?: number;
  cacheRead?: number;
}

/** Merges the counts of one usage object into `counts`, keeping earlier values the new one leaves out. */
export function mergeCounts(
  counts: AnthropicCounts,
  usage:
    | {
        input_tokens?: number | null;
        output_tokens?: number | null;
        cache_creation_input_tokens?: number | null;
        cache_read_input_tokens?: number | null;
      }
    | null
    | undefined,
): void {
  counts.input = usage?.input_tokens ?? counts.input;
  counts.output = usage?.output_tokens ?? counts.output;
  counts.cacheWrite = usage?.cache_creation_input_tokens ?? counts.cacheWrite;
  counts.cacheRead = usage?.cache_read_input_tokens ?? counts.cacheRead;
}

/**
 * Usage from Anthropic's counts. `input_tokens` leaves out the tokens read from and written to the
 * cache, so they are added back: `promptTokens` is every prompt token, as budgets need.
 */
export function anthropicUsage(counts: AnthropicCounts): Usage | undefined {
  if (counts.input === undefined || counts.output === undefined) return undefined;
  const cacheRead = counts.cacheRead ?? 0;
  const cacheWrite = counts.cacheWrite ?? 0;
  const usage: Usage = { promptTokens: counts.input + cacheRead + cacheWrite, completionTokens: counts.output };
  if (cacheRead > 0) usage.cacheReadTokens = cacheRead;
  if (cacheWrite > 0) usage.cacheWriteTokens = cacheWrite;
  return usage;
}
