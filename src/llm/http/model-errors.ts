import { errorMessage, ModelError, redactText } from '../../core/index.js';

/**
 * Replaces every secret in `text` with `[redacted]`: the given ones (the provider's API key, which
 * may have any shape) and anything shaped like a credential (`redactText`: keys, tokens, passwords
 * in URLs, `?api_key=` parameters).
 */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return redactText(out);
}

/** Pulls the human message out of a provider's error body (`{error:{message}}`, `{error:"..."}`, `{message}`). */
export function providerMessageOf(bodyText: string): string | undefined {
  const trimmed = bodyText.trim();
  if (!trimmed) return undefined;
  try {
    const body: unknown = JSON.parse(trimmed);
    const found = messageIn(body);
    if (found) return found;
  } catch {
    // Not JSON: fall through to the raw text.
  }
  return trimmed.slice(0, 500);
}

function messageIn(body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  if (record.error !== undefined) return messageIn(record.error);
  if (typeof record.message === 'string') return record.message;
  if (typeof record.detail === 'string') return record.detail;
  return undefined;
}

const HINTS: Record<number, string> = {
  401: 'Check the API key.',
  403: 'Check the API key and that it may use this model.',
  404: 'Check the base URL and the model name.',
  429: 'The provider is rate limiting; retry later or lower the request rate.',
};

/** A non-2xx HTTP answer as a ModelError: 429, 408, 409 and 5xx are retryable, other 4xx are not. */
export function statusError(options: {
  provider: string;
  status: number;
  bodyText: string;
  retryAfterMs?: number;
  secrets?: readonly (string | undefined)[];
}): ModelError {
  const { provider, status } = options;
  const raw = providerMessageOf(options.bodyText);
  const providerMessage = raw === undefined ? undefined : redact(raw, options.secrets);
  const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
  const hint = HINTS[status] ?? (status >= 500 ? 'The provider failed; it may work if retried.' : '');
  const detail = providerMessage ? `: ${providerMessage}` : '';
  return new ModelError({
    message: `${provider} returned HTTP ${status}${detail}${hint ? ` ${hint}` : ''}`,
    code: 'model_http',
    provider,
    status,
    retryable,
    providerMessage,
    retryAfterSeconds: options.retryAfterMs === undefined ? undefined : options.retryAfterMs / 1000,
  });
}

/** The caller's AbortSignal fired. */
export function abortedError(provider: string): ModelError {
  return new ModelError({ message: 'The model call was aborted.', code: 'model_aborted', provider, retryable: false });
}

/** No answer (or no further bytes) within the per-request timeout. */
export function timeoutError(provider: string, timeoutMs: number): ModelError {
  return new ModelError({
    message: `${provider} did not answer within ${timeoutMs} ms. Raise timeoutMs or check that the server is up.`,
    code: 'model_timeout',
    provider,
    retryable: true,
  });
}

/** The connection failed (refused, reset, DNS). */
export function networkError(provider: string, cause: unknown, secrets?: readonly (string | undefined)[]): ModelError {
  const reason = redact(errorMessage(cause), secrets);
  const inner = cause instanceof Error && cause.cause ? ` (${redact(errorMessage(cause.cause), secrets)})` : '';
  return new ModelError({
    message: `Could not reach ${provider}: ${reason}${inner}. Check the base URL and that the server is running.`,
    code: 'model_network',
    provider,
    retryable: true,
  });
}

/** The provider answered something we cannot read (bad JSON, a broken stream line, an unexpected shape). */
export function parseError(provider: string, what: string, sample?: string): ModelError {
  const shown = sample === undefined ? '' : `: ${JSON.stringify(sample.slice(0, 200))}`;
  return new ModelError({
    message: `${provider} sent ${what} that could not be read${shown}.`,
    code: 'model_parse',
    provider,
    retryable: false,
  });
}

/** Marks an error as final after `attempts` tries, keeping its status and provider message. */
export function exhaustedError(error: ModelError, attempts: number): ModelError {
  if (attempts <= 1) return error;
  return new ModelError({
    message: `${error.message} (gave up after ${attempts} attempts)`,
    code: error.code as ConstructorParameters<typeof ModelError>[0]['code'],
    provider: error.provider,
    status: error.status,
    retryable: error.retryable,
    providerMessage: error.providerMessage,
    retryAfterSeconds: error.retryAfterSeconds,
    cause: error,
  });
}
