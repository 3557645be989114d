/**
 * Thrown by a tool to say "try again": the executor retries it with backoff (up to the tool's
 * `retries`) instead of reporting a failure. `retryAfterMs` overrides the backoff delay.
 *
 * @example
 * if (response.status === 503) throw new RetryableToolError('search service busy', { retryAfterMs: 500 });
 */
export class RetryableToolError extends Error {
  readonly retryAfterMs?: number;
  constructor(message: string, options: { retryAfterMs?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'RetryableToolError';
    this.retryAfterMs = options.retryAfterMs;
  }
}

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/**
 * True for errors worth retrying: a `RetryableToolError` (by name, so copies of the module agree)
 * or a transient network error (ECONNRESET and friends, also when wrapped as a fetch `cause`).
 */
export function isRetryableError(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const { name, code } = e as { name?: unknown; code?: unknown };
    if (name === 'RetryableToolError') return true;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The delay before retry number `attempt` (1-based): exponential with jitter, capped at 5 s. */
export function retryDelay(error: unknown, attempt: number, baseMs: number): number {
  const asked = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  if (typeof asked === 'number' && asked >= 0) return asked;
  const exponential = Math.min(5000, baseMs * 2 ** (attempt - 1));
  return exponential / 2 + Math.random() * (exponential / 2);
}
