import { isModelError, type ModelError } from '../../core/index.js';
import { parseRetryAfter, type RetryOptions, retryDelay } from './backoff.js';
import { abortedError, exhaustedError, networkError, statusError, timeoutError } from './model-errors.js';

/** One JSON POST to a provider, with the resilience every HTTP provider shares. */
export interface HttpRequest {
  provider: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** Per-attempt timeout: until the response headers arrive, then between body chunks. */
  timeoutMs: number;
  /** Retries after the first attempt on 429, 408/409, 5xx, timeouts and network errors. */
  maxRetries: number;
  retry?: RetryOptions;
  signal?: AbortSignal;
  /** Strings that must never appear in an error (the API key). */
  secrets?: readonly (string | undefined)[];
}

/** The resilience options every HTTP provider takes, as a user sets them (all optional). */
export type HttpResilienceOptions = { timeoutMs?: number; maxRetries?: number; retry?: RetryOptions };

/**
 * The resilience fields of an `HttpRequest` with the shared defaults filled in: 2 retries, and a
 * per-attempt timeout of 120 s unless the provider passes its own (Ollama waits longer for model loads).
 */
export function resilience(
  options: HttpResilienceOptions,
  defaultTimeoutMs = 120_000,
): Pick<HttpRequest, 'timeoutMs' | 'maxRetries' | 'retry'> {
  return {
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
    maxRetries: options.maxRetries ?? 2,
    retry: options.retry,
  };
}

/** A successful (2xx) response whose body is still to be read under the same timeout and signal. */
export interface HttpResponse {
  response: Response;
  /** Fires when the attempt is aborted (caller's signal or timeout); body readers stop on it. */
  signal: AbortSignal;
  /** Restarts the idle timer; call it whenever body bytes arrive. */
  touch(): void;
  /** Stops the timer and detaches from the caller's signal. Call once the body is read or abandoned. */
  done(): void;
  /** Turns an error thrown while reading the body into a ModelError (aborted, timeout or network). */
  fail(error: unknown): ModelError;
}

/**
 * POSTs JSON and returns the first 2xx response, retrying with exponential backoff and jitter
 * (or the provider's Retry-After, capped). Other 4xx fail at once. The caller's signal aborts the
 * request in flight, and the wait between retries, immediately.
 */
export async function fetchWithRetry(request: HttpRequest): Promise<HttpResponse> {
  for (let attempt = 0; ; attempt++) {
    if (request.signal?.aborted) throw abortedError(request.provider);
    const guard = startAttempt(request);
    let error: ModelError;
    try {
      const response = await fetch(request.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...request.headers },
        body: JSON.stringify(request.body),
        signal: guard.signal,
      });
      if (response.ok)
        return { response, signal: guard.signal, touch: guard.arm, done: guard.done, fail: guard.classify };
      const bodyText = await response.text().catch(() => '');
      error = statusError({
        provider: request.provider,
        status: response.status,
        bodyText,
        retryAfterMs: parseRetryAfter(response.headers),
        secrets: request.secrets,
      });
    } catch (thrown) {
      error = guard.classify(thrown);
    }
    // On success the caller owns the guard until the body is read; on failure it ends here.
    guard.done();
    if (!error.retryable || attempt >= request.maxRetries) throw exhaustedError(error, attempt + 1);
    const retryAfterMs = error.retryAfterSeconds === undefined ? undefined : error.retryAfterSeconds * 1000;
    await sleep(retryDelay(attempt, retryAfterMs, request.retry), request.signal, request.provider);
  }
}

/** One attempt's abort controller: fires on the caller's signal or on the (re-armable) timeout. */
function startAttempt(request: HttpRequest) {
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    if (!(request.timeoutMs > 0) || !Number.isFinite(request.timeoutMs)) return;
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, request.timeoutMs);
  };
  const onAbort = () => controller.abort();
  request.signal?.addEventListener('abort', onAbort, { once: true });
  arm();
  return {
    signal: controller.signal,
    arm,
    done() {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
    },
    classify(error: unknown): ModelError {
      if (isModelError(error)) return error;
      if (request.signal?.aborted) return abortedError(request.provider);
      if (timedOut) return timeoutError(request.provider, request.timeoutMs);
      return networkError(request.provider, error, request.secrets);
    },
  };
}

function sleep(ms: number, signal: AbortSignal | undefined, provider: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError(provider));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError(provider));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
