import { COMPACTION_DEFAULTS, defaultBudgetFor } from '../memory/index.js';
import type { AgentOptions } from './agent-options.js';

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
  const context = options.context;
  if (context?.compaction === false) return OBSERVATION_LIMIT;
  const budget = context?.budgetTokens ?? defaultBudgetFor(options.model);
  if (budget === undefined) return OBSERVATION_LIMIT;
  const to = context?.compaction?.to ?? COMPACTION_DEFAULTS.to;
  return Math.max(OBSERVATION_LIMIT, Math.floor(budget * to) * CHARS_PER_TOKEN);
}
