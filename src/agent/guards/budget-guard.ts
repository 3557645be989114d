import type { RunUsage } from '../../core/index.js';
import type { StopReason } from './stop-reason.js';

/** Limits that end a run `budget_exceeded`. */
export interface Budget {
  /** Prompt + completion tokens over the whole run. */
  maxTotalTokens?: number;
  /** Wall-clock milliseconds for the whole run. */
  maxDurationMs?: number;
}

/** Stops when the run has spent its token or time budget. */
export function budgetGuard(usage: RunUsage, startedAt: number, budget: Budget | undefined): StopReason | undefined {
  if (!budget) return undefined;
  const tokens = usage.promptTokens + usage.completionTokens;
  if (budget.maxTotalTokens !== undefined && tokens >= budget.maxTotalTokens) {
    return {
      status: 'budget_exceeded',
      code: 'token_budget',
      message: `The run used ${tokens} tokens; its budget is ${budget.maxTotalTokens}.`,
    };
  }
  const elapsed = Date.now() - startedAt;
  if (budget.maxDurationMs !== undefined && elapsed >= budget.maxDurationMs) {
    return {
      status: 'budget_exceeded',
      code: 'time_budget',
      message: `The run took ${elapsed} ms; its budget is ${budget.maxDurationMs} ms.`,
    };
  }
  return undefined;
}
