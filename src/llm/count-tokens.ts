import { estimateTokenCount } from 'tokenx';
import { isThinkflowError, requireDependency } from '../core/index.js';

type GptTokenizer = typeof import('gpt-tokenizer');

/** Which counter `countTokens` uses: exact o200k when gpt-tokenizer is installed, else the tokenx estimate. */
export type TokenCounterKind = 'o200k' | 'estimate';

let exact: GptTokenizer | null | undefined;
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * gpt-tokenizer (an optional peer) if the app installed it, else null. Looked up once, on the first count:
 * its tables take about a second to load, so nothing that never counts pays for them.
 */
function loadExact(): GptTokenizer | null {
  if (exact !== undefined) return exact;
  try {
    // Loaded by name, not through the table of optional features: a missing peer is no error here, so the
    // counter (which every agent reaches) does not bundle the install hints of every feature.
    exact = requireDependency<GptTokenizer>('gpt-tokenizer');
    // Its global merge cache defaults to 100k entries; a small one is enough here.
    exact.setMergeCacheSize(2_048);
  } catch (error) {
    // Deno without --allow-read may not look into node_modules: count with the estimate, as without the peer.
    const denied = ['NotCapable', 'PermissionDenied'].includes((error as Error | null)?.name ?? '');
    if (!isThinkflowError(error) && !denied && !notInstalled(error)) throw error;
    exact = null;
  }
  return exact;
}

/** True when `gpt-tokenizer` itself is not installed (not when something it needs is missing). */
function notInstalled(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') && String(error).includes('gpt-tokenizer');
}

/** The counter `countTokens` uses in this process. */
export function tokenCounterKind(): TokenCounterKind {
  return loadExact() ? 'o200k' : 'estimate';
}

/**
 * Counts a text's tokens: exactly in OpenAI's o200k encoding when `gpt-tokenizer` is installed, otherwise
 * with tokenx's estimate (2 kB, within about 9% of o200k on average on real model replies; see
 * `bench/token-estimate.bench.ts`). Providers' own usage numbers always win over either; this fills gaps
 * and sizes the context window.
 */
export function countTokens(text: string): number {
  const tokenizer = loadExact();
  // A special token in text (`<|im_end|>` from a local model) counts as text, not an error.
  return tokenizer ? tokenizer.countTokens(text, PLAIN_TEXT) : estimateTokenCount(text);
}
