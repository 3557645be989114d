import { createContextWindow, defaultBudgetFor } from '../../memory/index.js';
import type { AgentOptions } from '../run/index.js';
import { summarizeWithModel } from './summarize-with-model.js';

/**
 * A run's context window, only when there is a budget (so small runs pay nothing for it) and compaction
 * is on: the agent's `context` options, its model's window, and the summarizer (the cheap model by default).
 */
export function contextWindowFor(options: AgentOptions) {
  const context = options.context;
  if (context?.compaction === false) return undefined;
  const budgetTokens = context?.budgetTokens ?? defaultBudgetFor(options.model);
  if (budgetTokens === undefined) return undefined;
  const summarizer =
    context?.summarize === false
      ? undefined
      : context?.summarize === true || context?.summarize === undefined
        ? (options.models?.cheap ?? options.model)
        : context.summarize;
  return createContextWindow({
    budgetTokens,
    observationLimit: context?.observationLimit ?? options.observationLimit,
    summarize: summarizer ? summarizeWithModel(summarizer) : undefined,
    compaction: context?.compaction,
  });
}
