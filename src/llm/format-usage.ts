import type { RunUsage, Usage } from '../core/index.js';

/**
 * The detail of a usage beyond prompt and completion, for traces and viewers:
 * ` (300 cached, 40 cache write, 80 reasoning)`, or '' when there is none.
 */
export function usageDetail(usage: Pick<Usage, 'cacheReadTokens' | 'cacheWriteTokens' | 'reasoningTokens'>): string {
  const parts: string[] = [];
  if (usage.cacheReadTokens) parts.push(`${usage.cacheReadTokens} cached`);
  if (usage.cacheWriteTokens) parts.push(`${usage.cacheWriteTokens} cache write`);
  if (usage.reasoningTokens) parts.push(`${usage.reasoningTokens} reasoning`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** The share of prompt tokens served from the provider's cache (0 when nothing was cached). */
export function cacheShare(usage: Pick<RunUsage, 'promptTokens' | 'cacheReadTokens'>): number {
  return usage.promptTokens > 0 ? (usage.cacheReadTokens ?? 0) / usage.promptTokens : 0;
}

/** A duration for people: `0.5 ms`, `18 ms`, `2.5 s`. */
export function formatMs(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 10 && !Number.isInteger(ms)) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms)} ms`;
}
