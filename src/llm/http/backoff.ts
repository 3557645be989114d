/** How long to wait between retries. All values in milliseconds. */
export interface RetryOptions {
  /** First backoff delay (doubled each attempt). Default 500. */
  baseDelayMs?: number;
  /** Largest backoff delay. Default 8000. */
  maxDelayMs?: number;
  /** Largest wait a provider's Retry-After may impose; longer requests are capped to this. Default 30000. */
  maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = { baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 30_000 };

/**
 * Exponential backoff with "equal jitter": half the delay is fixed, half random, so retries
 * from many clients spread out but never collapse to zero.
 */
export function backoffDelay(attempt: number, options: RetryOptions = {}, random: () => number = Math.random): number {
  const base = options.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs;
  const max = options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs;
  const delay = Math.min(max, base * 2 ** attempt);
  return Math.round(delay / 2 + random() * (delay / 2));
}

/**
 * Reads `retry-after-ms` (OpenAI) or `Retry-After` (seconds or an HTTP date) into milliseconds.
 * Returns undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** The wait before retry number `attempt` (0-based): the provider's Retry-After when given (capped), else backoff. */
export function retryDelay(
  attempt: number,
  retryAfterMs: number | undefined,
  options: RetryOptions = {},
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) {
    return Math.min(retryAfterMs, options.maxRetryAfterMs ?? DEFAULT_RETRY.maxRetryAfterMs);
  }
  return backoffDelay(attempt, options, random);
}
