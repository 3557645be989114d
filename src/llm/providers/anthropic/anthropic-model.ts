import type { ModelRequest } from '../../../core/index.js';
import { endpoint, type HttpRequest, type RetryOptions } from '../../http/index.js';
import type { Model } from '../../model.js';
import { sseChatModel } from '../sse-chat-model.js';
import { toAnthropicMessages, toAnthropicTools } from './convert-messages.js';
import { parseAnthropicResponse } from './parse-response.js';
import { parseAnthropicStream } from './parse-stream.js';

/** Options for {@link anthropic}. */
export interface AnthropicOptions {
  /** Sent as `x-api-key`. */
  apiKey: string;
  /** e.g. `claude-sonnet-4-5`. */
  model: string;
  /** Default `https://api.anthropic.com/v1` (requests go to `/messages`). */
  baseURL?: string;
  /** The `anthropic-version` header. Default `2023-06-01`. */
  version?: string;
  /** `max_tokens` when the request sets none (the API requires one). Default 4096. */
  maxTokens?: number;
  headers?: Record<string, string>;
  /** Per-request timeout: until the answer starts, then between streamed chunks. Default 120 000 ms. */
  timeoutMs?: number;
  /** Retries on 429, 5xx (529 overloaded too), timeouts and network errors. Default 2. */
  maxRetries?: number;
  retry?: RetryOptions;
  contextWindow?: number;
  /** The Model's `id`. Default `anthropic:<model>`. */
  id?: string;
  /** Extra fields merged into every request body (e.g. `{ top_k: 40 }` or `{ metadata: {...} }`). */
  extraBody?: Record<string, unknown>;
}

/**
 * A Claude model over the Anthropic Messages API: the system prompt top-level, tool_use and
 * tool_result blocks, streaming events with `input_json_delta` assembled into tool calls.
 *
 * @example
 * const model = anthropic({ apiKey: process.env.ANTHROPIC_API_KEY!, model: 'claude-sonnet-4-5' });
 */
export function anthropic(options: AnthropicOptions): Model {
  const provider = 'anthropic';
  const id = options.id ?? `anthropic:${options.model}`;
  const url = endpoint(options.baseURL ?? 'https://api.anthropic.com/v1', '/messages', provider);
  const headers: Record<string, string> = {
    ...options.headers,
    'x-api-key': options.apiKey,
    'anthropic-version': options.version ?? '2023-06-01',
  };

  function httpRequest(request: ModelRequest, stream: boolean): HttpRequest {
    const { system, messages } = toAnthropicMessages(request.messages);
    const body: Record<string, unknown> = {
      ...options.extraBody,
      model: options.model,
      max_tokens: request.maxTokens ?? options.maxTokens ?? 4096,
      messages,
    };
    if (system) body.system = system;
    if (request.tools?.length) body.tools = toAnthropicTools(request.tools);
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.stop?.length) body.stop_sequences = request.stop;
    if (stream) body.stream = true;
    return {
      provider,
      url,
      headers: { ...headers, accept: stream ? 'text/event-stream' : 'application/json' },
      body,
      timeoutMs: options.timeoutMs ?? 120_000,
      maxRetries: options.maxRetries ?? 2,
      retry: options.retry,
      signal: request.signal,
      secrets: [options.apiKey],
    };
  }

  return sseChatModel({
    id,
    provider,
    contextWindow: options.contextWindow,
    request: httpRequest,
    parse: (body) => parseAnthropicResponse(body, { provider }),
    parseStream: (events) => parseAnthropicStream(events, { provider, secrets: [options.apiKey] }),
  });
}
