import type { RetryOptions } from '../http/index.js';

/** The options every HTTP model provider takes besides its own: headers, timeout, retries and what the Model reports. */
export interface HttpModelOptions {
  /** Extra request headers. */
  headers?: Record<string, string>;
  /**
   * Per-request timeout: until the answer starts, then between streamed chunks. Default 120 000 ms
   * (Ollama: 300 000 ms, as model loads are slow).
   */
  timeoutMs?: number;
  /** Retries on 429, 5xx (Anthropic's 529 overloaded too), timeouts and network errors. Default 2. */
  maxRetries?: number;
  /** Backoff tuning (base and max delay, Retry-After cap). */
  retry?: RetryOptions;
  /** Context window in tokens, when known. */
  contextWindow?: number;
  /** The Model's `id`. Default `<provider>:<model>`. */
  id?: string;
}
