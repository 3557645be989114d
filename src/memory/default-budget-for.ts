/** Tokens kept free for the model's reply, at most. */
const MAX_REPLY_RESERVE = 4_096;

/**
 * The default prompt budget for a model: 75% of its context window minus a reply reserve
 * (10% of the window, at most 4096 tokens). `undefined` when the window is unknown: no budget.
 *
 * @example
 * defaultBudgetFor({ contextWindow: 128_000 }); // 91_904
 */
export function defaultBudgetFor(model: { contextWindow?: number }): number | undefined {
  const window = model.contextWindow;
  if (!window || !(window > 0)) return undefined;
  const reserve = Math.min(MAX_REPLY_RESERVE, Math.floor(window * 0.1));
  return Math.max(1, Math.floor(window * 0.75) - reserve);
}
