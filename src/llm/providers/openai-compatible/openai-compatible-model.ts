import type { ModelRequest } from '../../../core/index.js';
import { endpoint, type HttpRequest } from '../../http/index.js';
import type { Model } from '../../model.js';
import type { HttpModelOptions } from '../http-model-options.js';
import { sseChatModel, sseModelIdentity } from '../sse-chat-model.js';
import { toOpenAIMessages, toOpenAITools } from './convert-messages.js';
import { parseOpenAIResponse } from './parse-response.js';
import { parseOpenAIStream } from './parse-stream.js';

/** Options for {@link openaiCompatible}. */
export interface OpenAICompatibleOptions extends HttpModelOptions {
  /** The API root, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8080/v1` (requests go to `/chat/completions`). */
  baseURL: string;
  /** Sent as `Authorization: Bearer …`; omit for local servers that need none. */
  apiKey?: string;
  /** The model name the server expects. */
  model: string;
  /** The provider name used in errors. Default `openai-compatible`. */
  provider?: string;
  /**
   * The body field for `maxTokens`. Default `max_tokens`, which compat servers read; OpenAI's own
   * reasoning models accept only `max_completion_tokens`.
   */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /**
   * `reasoning_effort` for reasoning models (OpenAI o-series and gpt-5, Grok, and compat servers that
   * honour it). Unset sends nothing, so the server's default applies.
   */
  reasoningEffort?: 'minimal' | 'low' | 'medium' | 'high';
  /** Extra fields merged into every request body (e.g. `{ top_p: 0.9 }` or a server's own switches). */
  extraBody?: Record<string, unknown>;
}

/**
 * A model served over the OpenAI chat-completions API: OpenAI itself, vLLM, llama.cpp server,
 * LM Studio, DeepSeek, Qwen (DashScope) and others. Native tools, several tool calls per reply,
 * streaming with tool-call deltas, reasoning (`reasoning_content`/`reasoning`) kept apart from the
 * text, image and file parts, cached and reasoning token counts, and usage (estimated when the server
 * sends none).
 *
 * @example
 * const model = openaiCompatible({ baseURL: 'http://127.0.0.1:8080/v1', model: 'qwen2.5-7b-instruct' });
 * const reply = await model.generate({ messages: [{ role: 'user', content: 'Hello' }] });
 */
export function openaiCompatible(options: OpenAICompatibleOptions): Model {
  const who = sseModelIdentity(options.provider ?? 'openai-compatible', options);
  const url = endpoint(options.baseURL, '/chat/completions', who.provider);
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

  function httpRequest(request: ModelRequest, stream: boolean): Pick<HttpRequest, 'url' | 'headers' | 'body'> {
    const body: Record<string, unknown> = {
      ...options.extraBody,
      model: options.model,
      messages: toOpenAIMessages(request.messages),
    };
    if (request.tools?.length) body.tools = toOpenAITools(request.tools);
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.topP !== undefined) body.top_p = request.topP;
    if (request.maxTokens !== undefined) body[options.maxTokensField ?? 'max_tokens'] = request.maxTokens;
    if (request.stop?.length) body.stop = request.stop;
    if (options.reasoningEffort) body.reasoning_effort = options.reasoningEffort;
    if (request.responseFormat && !request.tools?.length) {
      const { name, schema, strict } = request.responseFormat;
      body.response_format = { type: 'json_schema', json_schema: { name, schema, strict: strict ?? false } };
    }
    if (stream) {
      body.stream = true;
      body.stream_options = { include_usage: true };
    }
    return { url, headers: stream ? { ...headers, accept: 'text/event-stream' } : headers, body };
  }

  return sseChatModel({ ...who, request: httpRequest, parse: parseOpenAIResponse, parseStream: parseOpenAIStream });
}
