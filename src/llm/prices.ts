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
 * When the built-in table was taken, and from where. List prices in USD per million tokens, the
 * base tier (prompts up to 200k tokens where a vendor charges more above), with the cached-input
 * price as `cacheRead` and Anthropic's 5-minute cache write as `cacheWrite`, without batch discounts. Taken from the vendors' pricing pages as they stood in December 2025:
 * openai.com/api/pricing, anthropic.com/pricing, ai.google.dev/gemini-api/docs/pricing,
 * api-docs.deepseek.com/quick_start/pricing, alibabacloud.com/help/en/model-studio/models.
 * Prices change: check the vendor's page, and `registerPrice` what differs.
 */
export const PRICES_AS_OF = '2025-12';

/** Keys are model names without the provider prefix, matched exactly (see `priceOf`). */
const BUILTIN_PRICES: Record<string, Price> = {
  // OpenAI
  'gpt-5': { input: 1.25, output: 10, cacheRead: 0.125 },
  'gpt-5.1': { input: 1.25, output: 10, cacheRead: 0.125 },
  'gpt-5-mini': { input: 0.25, output: 2, cacheRead: 0.025 },
  'gpt-5-nano': { input: 0.05, output: 0.4, cacheRead: 0.005 },
  'gpt-5-pro': { input: 15, output: 120 },
  'gpt-4.1': { input: 2, output: 8, cacheRead: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cacheRead: 0.1 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cacheRead: 0.025 },
  'gpt-4o': { input: 2.5, output: 10, cacheRead: 1.25 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075 },
  'chatgpt-4o-latest': { input: 5, output: 15 },
  'gpt-4-turbo': { input: 10, output: 30 },
  'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
  o1: { input: 15, output: 60, cacheRead: 7.5 },
  'o1-pro': { input: 150, output: 600 },
  'o1-mini': { input: 1.1, output: 4.4, cacheRead: 0.55 },
  o3: { input: 2, output: 8, cacheRead: 0.5 },
  'o3-pro': { input: 20, output: 80 },
  'o3-mini': { input: 1.1, output: 4.4, cacheRead: 0.55 },
  'o4-mini': { input: 1.1, output: 4.4, cacheRead: 0.275 },
  // Anthropic
  'claude-opus-4-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-opus-4-1': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-opus-4': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-sonnet-4': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  'claude-3-7-sonnet': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-3-5-sonnet': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
  'claude-3-opus': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-3-haiku': { input: 0.25, output: 1.25, cacheRead: 0.025, cacheWrite: 0.3125 },
  // Google
  'gemini-2.5-pro': { input: 1.25, output: 10, cacheRead: 0.125 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5, cacheRead: 0.03 },
  'gemini-2.5-flash-lite': { input: 0.1, output: 0.4, cacheRead: 0.01 },
  'gemini-2.0-flash': { input: 0.1, output: 0.4, cacheRead: 0.025 },
  // DeepSeek (V3.2: both names, cache-miss input)
  'deepseek-chat': { input: 0.28, output: 0.42, cacheRead: 0.028 },
  'deepseek-reasoner': { input: 0.28, output: 0.42, cacheRead: 0.028 },
  // Alibaba Qwen (international)
  'qwen-max': { input: 1.6, output: 6.4 },
  'qwen-plus': { input: 0.4, output: 1.2 },
  'qwen-turbo': { input: 0.05, output: 0.2 },
};

/** Names a vendor gives the same model, beyond what the snapshot rule covers. */
const ALIASES: Record<string, string> = {
  'gpt-5-chat-latest': 'gpt-5',
  'claude-opus-4-0': 'claude-opus-4',
  'claude-sonnet-4-0': 'claude-sonnet-4',
};

/**
 * A dated snapshot or a moving alias of a listed model: `gpt-4o-2024-08-06`, `claude-sonnet-4-5-20250929`,
 * `claude-sonnet-4-5@20250929` (Vertex), `gpt-3.5-turbo-0125`, `claude-3-5-sonnet-latest`.
 */
const SNAPSHOT_SUFFIX = /(?:-\d{4}-\d{2}-\d{2}|[-@]\d{8}|-\d{4}|-latest)$/;

/** Providers that run on the user's machine (or are test doubles) cost nothing. */
const FREE_PROVIDERS = new Set(['ollama', 'llamacpp', 'scripted', 'demo', 'replay', 'chaos']);

const prices = new Map<string, Price>(Object.entries(BUILTIN_PRICES));

/**
 * Adds or overrides a price. `model` is a name without provider prefix (`my-finetune`), matched
 * exactly (case-insensitive), or with a snapshot suffix as `priceOf` describes.
 *
 * @example
 * registerPrice('my-finetune', { input: 0.3, output: 1.2 });
 */
export function registerPrice(model: string, price: Price): void {
  prices.set(model.toLowerCase(), price);
  found.clear();
}

/** Prices already looked up, by model id (every run prices its model once); cleared when a price is registered. */
const found = new Map<string, Price | undefined>();

/**
 * The price for a model id such as `openai:gpt-4o-mini` or `compat:http://host#qwen-plus`, if known.
 * The name must be a known model exactly, an alias of one, or one with a snapshot suffix (a date
 * `-2024-08-06`, `-20250929`, `@20250929`, `-0125`, or `-latest`). Nothing is matched by prefix:
 * `o3-pro` is not `o3`, and a model not in the table is `undefined` rather than a guess.
 */
export function priceOf(modelId: string): Price | undefined {
  if (found.has(modelId)) return found.get(modelId);
  const price = lookupPrice(modelId);
  if (found.size >= 256) found.clear();
  found.set(modelId, price);
  return price;
}

function lookupPrice(modelId: string): Price | undefined {
  const { provider, name } = splitId(modelId);
  if ((provider && FREE_PROVIDERS.has(provider)) || FREE_PROVIDERS.has(name)) return { input: 0, output: 0 };
  return lookup(name) ?? (SNAPSHOT_SUFFIX.test(name) ? lookup(name.replace(SNAPSHOT_SUFFIX, '')) : undefined);
}

function lookup(name: string): Price | undefined {
  return prices.get(name) ?? (Object.hasOwn(ALIASES, name) ? prices.get(ALIASES[name]) : undefined);
}

/**
 * Cost in US dollars of one call (or a run's totals), or `undefined` when the model's price is
 * unknown (then `usage.costUsd` stays unset: no cost is better than a wrong one).
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
  // `openai:gpt-4o` and also model names with a slash (`openrouter:openai/gpt-4o`, `google:models/gemini-2.5-pro`).
  return { provider: lower.slice(0, colon), name: name.slice(name.lastIndexOf('/') + 1) };
}
