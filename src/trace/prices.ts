import type { Usage } from '../core/index.js';

/**
 * US dollars per million tokens. Reasoning tokens are output tokens. Prompt tokens read from the
 * provider's cache cost `cacheRead` and those written to it `cacheWrite`; either defaults to `input`.
 */
export interface Price {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/**
 * List prices (USD per million tokens) of common hosted models. Keys are model names without the
 * provider prefix; a dated or suffixed id (`gpt-4o-mini-2024-07-18`) matches its longest key prefix.
 */
const BUILTIN_PRICES: Record<string, Price> = {
  'gpt-4o': { input: 2.5, output: 10, cacheRead: 1.25 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075 },
  'gpt-4.1': { input: 2, output: 8, cacheRead: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cacheRead: 0.1 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cacheRead: 0.025 },
  'gpt-4-turbo': { input: 10, output: 30 },
  'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
  o1: { input: 15, output: 60, cacheRead: 7.5 },
  'o1-mini': { input: 1.1, output: 4.4, cacheRead: 0.55 },
  o3: { input: 2, output: 8, cacheRead: 0.5 },
  'o3-mini': { input: 1.1, output: 4.4, cacheRead: 0.55 },
  'o4-mini': { input: 1.1, output: 4.4, cacheRead: 0.275 },
  'claude-3-haiku': { input: 0.25, output: 1.25, cacheRead: 0.025, cacheWrite: 0.3125 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
  'claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  'claude-3-5-sonnet': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-3-7-sonnet': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-sonnet-4': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-opus-4': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'deepseek-chat': { input: 0.27, output: 1.1, cacheRead: 0.07 },
  'deepseek-reasoner': { input: 0.55, output: 2.19, cacheRead: 0.14 },
  'qwen-max': { input: 1.6, output: 6.4 },
  'qwen-plus': { input: 0.4, output: 1.2 },
  'qwen-turbo': { input: 0.05, output: 0.2 },
};

/** Providers that run on the user's machine (or are test doubles) cost nothing. */
const FREE_PROVIDERS = new Set(['ollama', 'llamacpp', 'scripted', 'demo', 'replay', 'chaos']);

const prices = new Map<string, Price>(Object.entries(BUILTIN_PRICES));

/**
 * Adds or overrides a price. `model` is a name without provider prefix (`my-finetune`), matched
 * exactly or as the longest prefix of the id.
 *
 * @example
 * registerPrice('my-finetune', { input: 0.3, output: 1.2 });
 */
export function registerPrice(model: string, price: Price): void {
  prices.set(model.toLowerCase(), price);
}

/** The price for a model id such as `openai:gpt-4o-mini` or `compat:http://host#qwen-plus`, if known. */
export function priceOf(modelId: string): Price | undefined {
  const { provider, name } = splitId(modelId);
  if (provider && FREE_PROVIDERS.has(provider)) return { input: 0, output: 0 };
  if (FREE_PROVIDERS.has(name)) return { input: 0, output: 0 };
  const exact = prices.get(name);
  if (exact) return exact;
  let best: string | undefined;
  for (const key of prices.keys()) {
    if (name.startsWith(key) && (!best || key.length > best.length)) best = key;
  }
  return best ? prices.get(best) : undefined;
}

/**
 * Cost in US dollars of one call (or a run's totals), or undefined when the model's price is unknown.
 *
 * @example
 * costOf('openai:gpt-4o-mini', { promptTokens: 1000, completionTokens: 200 }); // 0.00027
 * costOf('anthropic:claude-sonnet-4-5', { promptTokens: 10_000, completionTokens: 200, cacheReadTokens: 9_000 }); // 0.0087
 */
export function costOf(
  modelId: string,
  usage: Pick<Usage, 'promptTokens' | 'completionTokens' | 'cacheReadTokens' | 'cacheWriteTokens'>,
): number | undefined {
  const price = priceOf(modelId);
  if (!price) return undefined;
  const read = usage.cacheReadTokens ?? 0;
  const write = usage.cacheWriteTokens ?? 0;
  const fresh = Math.max(0, usage.promptTokens - read - write);
  const prompt =
    fresh * price.input + read * (price.cacheRead ?? price.input) + write * (price.cacheWrite ?? price.input);
  return (prompt + usage.completionTokens * price.output) / 1_000_000;
}

function splitId(modelId: string): { provider?: string; name: string } {
  const lower = modelId.toLowerCase();
  const hash = lower.lastIndexOf('#');
  if (hash >= 0) return { provider: lower.slice(0, lower.indexOf(':')), name: lower.slice(hash + 1) };
  const colon = lower.indexOf(':');
  if (colon < 0) return { name: lower };
  const name = lower.slice(colon + 1);
  // `openai:gpt-4o` and also model names with a slash (`openrouter:openai/gpt-4o`).
  return { provider: lower.slice(0, colon), name: name.slice(name.lastIndexOf('/') + 1) };
}
