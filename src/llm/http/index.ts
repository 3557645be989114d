export { backoffDelay, DEFAULT_RETRY, parseRetryAfter, type RetryOptions, retryDelay } from './backoff.js';
export { endpoint } from './endpoint.js';
export {
  fetchWithRetry,
  type HttpRequest,
  type HttpResilienceOptions,
  type HttpResponse,
  resilience,
} from './fetch-with-retry.js';
export {
  abortedError,
  exhaustedError,
  networkError,
  parseError,
  providerMessageOf,
  redact,
  statusError,
  timeoutError,
} from './model-errors.js';
export { readJson, responseLines } from './read-body.js';
export { readLines, type SseEvent, sseEvents, tryParseJson } from './sse-lines.js';
