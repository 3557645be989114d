import { errorMessage, ModelError } from '../core/index.js';

/**
 * POSTs JSON and returns the parsed reply. HTTP and network failures become a ModelError naming
 * the provider and the URL; headers (and so API keys) never appear in it.
 */
export async function postJson(
  provider: string,
  url: string,
  body: unknown,
  options: { headers?: Record<string, string>; signal?: AbortSignal },
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify(body),
      signal: options.signal,
    });
  } catch (error) {
    const aborted = options.signal?.aborted;
    throw new ModelError({
      message: aborted
        ? `${provider}: the embedding request to ${url} was aborted.`
        : `${provider}: cannot reach ${url} (${errorMessage(error)}). Check the server is running and the URL.`,
      code: aborted ? 'model_aborted' : 'model_network',
      provider,
      retryable: !aborted,
      cause: error,
    });
  }
  const text = await response.text();
  if (!response.ok) {
    let providerMessage: string | undefined;
    try {
      const parsed = JSON.parse(text) as { error?: { message?: string } | string };
      providerMessage = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message;
    } catch {
      providerMessage = text.slice(0, 200) || undefined;
    }
    throw new ModelError({
      message: `${provider}: ${url} answered HTTP ${response.status}${providerMessage ? `: ${providerMessage}` : ''}${response.status === 401 ? '. Check the API key.' : ''}`,
      provider,
      status: response.status,
      retryable: response.status === 429 || response.status >= 500,
      providerMessage,
    });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ModelError({
      message: `${provider}: ${url} did not answer JSON.`,
      code: 'model_parse',
      provider,
      retryable: false,
      cause: error,
    });
  }
}
