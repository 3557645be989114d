import { COMPACTION_DEFAULTS, defaultBudgetFor } from '../../memory/index.js';
import type { AgentOptions } from '../run/index.js';

/** Characters per tool result before the head + tail cut when nothing else decides (compaction off, or no budget). */
export const OBSERVATION_LIMIT = 4000;

/** Characters per token the cut assumes (English prose; denser scripts spend more tokens per character). */
const CHARS_PER_TOKEN = 4;

/**
 * Characters per tool result before it is cut to head + tail: the agent's `observationLimit` when set;
 * with compaction on and a budget, the low-water share of the budget (6,000 tokens of a 24k budget),
 * since clearing, not cutting, is what keeps the window in budget, and a result the model has to
 * recall costs it twice; else 4,000.
 */
export function observationLimitFor(options: Pick<AgentOptions, 'observationLimit' | 'context' | 'model'>): number {
  if (options.observationLimit !== undefined) return options.observationLimit;
  const tokens = observationTokensFor(options);
  return tokens === undefined ? OBSERVATION_LIMIT : tokens * CHARS_PER_TOKEN;
}

/**
 * The same limit in tokens, when it comes from the budget (compaction on, no `observationLimit` of the
 * agent's): the executor then cuts each result at what that many tokens hold in the result's own script
 * (a Chinese result at about a quarter of the characters an English one keeps). Undefined otherwise.
 */
export function observationTokensFor(
  options: Pick<AgentOptions, 'observationLimit' | 'context' | 'model'>,
): number | undefined {
  if (options.observationLimit !== undefined || options.context?.compaction === false) return undefined;
  const budget = options.context?.budgetTokens ?? defaultBudgetFor(options.model);
  if (budget === undefined) return undefined;
  const to = options.context?.compaction?.to ?? COMPACTION_DEFAULTS.to;
  // Never below what the fixed 4,000 characters hold in English.
  return Math.max(OBSERVATION_LIMIT / CHARS_PER_TOKEN, Math.floor(budget * to));
}
