import type { Usage } from '../core/index.js';

/** US dollars per million tokens. */
export interface Price {
  input: number;
  output: number;
}

/**
 * When the built-in table was taken, and from where. List prices in USD per million tokens, the
 * base tier (prompts up to 200k tokens where a vendor charges more above), without cache or batch
 * discounts. Taken from the vendors' pricing pages as they stood in December 2025:
 * openai.com/api/pricing, anthropic.com/pricing, ai.google.dev/gemini-api/docs/pricing,
 * api-docs.deepseek.com/quick_start/pricing, alibabacloud.com/help/en/model-studio/models.
 * Prices change: check the vendor's page, and `registerPrice` what differs.
 */
export const PRICES_AS_OF = '2025-12';

/** Keys are model names without the provider prefix, matched exactly (see `priceOf`). */
const BUILTIN_PRICES: Record<string, Price> = {
  // OpenAI
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-5.1': { input: 1.25, output: 10 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  'gpt-5-pro': { input: 15, output: 120 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'chatgpt-4o-latest': { input: 5, output: 15 },
  'gpt-4-turbo': { input: 10, output: 30 },
  'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
  o1: { input: 15, output: 60 },
  'o1-pro': { input: 150, output: 600 },
  'o1-mini': { input: 1.1, output: 4.4 },
  o3: { input: 2, output: 8 },
  'o3-pro': { input: 20, output: 80 },
  'o3-mini': { input: 1.1, output: 4.4 },
  'o4-mini': { input: 1.1, output: 4.4 },
  // Anthropic
  'claude-opus-4-5': { input: 5, output: 25 },
  'claude-opus-4-1': { input: 15, output: 75 },
  'claude-opus-4': { input: 15, output: 75 },
  'claude-sonnet-4-5': { input: 3, output: 15 },
  'claude-sonnet-4': { input: 3, output: 15 },
  'claude-haiku-4-5': { input: 1, output: 5 },
  'claude-3-7-sonnet': { input: 3, output: 15 },
  'claude-3-5-sonnet': { input: 3, output: 15 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
  'claude-3-opus': { input: 15, output: 75 },
  'claude-3-haiku': { input: 0.25, output: 1.25 },
  // Google
  'gemini-2.5-pro': { input: 1.25, output: 10 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5 },
  'gemini-2.5-flash-lite': { input: 0.1, output: 0.4 },
  'gemini-2.0-flash': { input: 0.1, output: 0.4 },
  // DeepSeek (V3.2: both names, cache-miss input)
  'deepseek-chat': { input: 0.28, output: 0.42 },
  'deepseek-reasoner': { input: 0.28, output: 0.42 },
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
}

/**
 * The price for a model id such as `openai:gpt-4o-mini` or `compat:http://host#qwen-plus`, if known.
 * The name must be a known model exactly, an alias of one, or one with a snapshot suffix (a date
 * `-2024-08-06`, `-20250929`, `@20250929`, `-0125`, or `-latest`). Nothing is matched by prefix:
 * `o3-pro` is not `o3`, and a model not in the table is `undefined` rather than a guess.
 */
export function priceOf(modelId: string): Price | undefined {
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
 */
export function costOf(modelId: string, usage: Pick<Usage, 'promptTokens' | 'completionTokens'>): number | undefined {
  const price = priceOf(modelId);
  if (!price) return undefined;
  return (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1_000_000;
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
