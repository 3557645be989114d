import { type ModelChunk, type ModelRequest, TOOL_NAME_RULES } from '../../../core/index.js';
import { endpoint, fetchWithRetry, type HttpRequest, readJson, resilience, responseLines } from '../../http/index.js';
import type { Model } from '../../model.js';
import type { HttpModelOptions } from '../http-model-options.js';
import { withWireToolNames } from '../wire-tool-names.js';
import { toOllamaMessages, toOllamaTools } from './convert-messages.js';
import { parseOllamaResponse, parseOllamaStream } from './parse-stream.js';

/** Options for {@link ollama}. */
export interface OllamaOptions extends HttpModelOptions {
  /** e.g. `llama3.1:8b`, `qwen2.5:7b`. */
  model: string;
  /** Default `http://127.0.0.1:11434` (a bare `host:port`, as OLLAMA_HOST allows, gets `http://`). */
  host?: string;
  /** Extra headers (e.g. for an authenticating proxy; their values never appear in errors). */
  headers?: Record<string, string>;
  /** Extra Ollama `options` (e.g. `{ num_ctx: 8192 }`); request temperature, maxTokens and stop are merged in. */
  options?: Record<string, unknown>;
  /** How long Ollama keeps the model loaded after the call, e.g. `'5m'`. */
  keepAlive?: string;
  /** Ask a thinking model to think (`think: true`, or a level for models that take one); its thinking is kept as reasoning. */
  think?: boolean | 'low' | 'medium' | 'high';
}

/** Normalises OLLAMA_HOST-style values (`0.0.0.0:11434`, `localhost`, `http://host:port/`) to a base URL. */
export function ollamaBaseURL(host: string | undefined): string {
  const value = (host ?? '').trim() || 'http://127.0.0.1:11434';
  const withScheme = /^https?:\/\//i.test(value) ? value : `http://${value}`;
  return withScheme.replace(/\/+$/, '');
}

/**
 * A model served by Ollama's /api/chat: native tools, streaming NDJSON, usage from
 * `prompt_eval_count`/`eval_count` (estimated when Ollama leaves one out).
 *
 * @example
 * const model = ollama({ model: 'qwen2.5:7b' });
 */
export function ollama(options: OllamaOptions): Model {
  const provider = 'ollama';
  const id = options.id ?? `ollama:${options.model}`;
  const url = endpoint(ollamaBaseURL(options.host), '/api/chat', provider);
  const secrets = Object.entries(options.headers ?? {})
    .filter(([name]) => /auth|key|token/i.test(name))
    .flatMap(([, value]) => [value, value.replace(/^(Bearer|Basic|Token)\s+/i, '')]);

  function httpRequest(request: ModelRequest, stream: boolean): HttpRequest {
    const modelOptions: Record<string, unknown> = { ...options.options };
    if (request.temperature !== undefined) modelOptions.temperature = request.temperature;
    if (request.topP !== undefined) modelOptions.top_p = request.topP;
    if (request.maxTokens !== undefined) modelOptions.num_predict = request.maxTokens;
    if (request.stop?.length) modelOptions.stop = request.stop;
    const body: Record<string, unknown> = {
      model: options.model,
      messages: toOllamaMessages(request.messages),
      stream,
    };
    if (request.tools?.length) body.tools = toOllamaTools(request.tools);
    if (Object.keys(modelOptions).length > 0) body.options = modelOptions;
    if (options.keepAlive) body.keep_alive = options.keepAlive;
    if (options.think !== undefined) body.think = options.think;
    // Structured output: Ollama constrains decoding to the schema given as `format`.
    if (request.responseFormat && !request.tools?.length) body.format = request.responseFormat.schema;
    return {
      provider,
      url,
      headers: { ...options.headers },
      body,
      // Model loads are slow: a longer first wait than the hosted providers'.
      ...resilience(options, 300_000),
      signal: request.signal,
      secrets,
    };
  }

  return withWireToolNames(
    {
      id,
      contextWindow: options.contextWindow,
      capabilities: { nativeTools: true, streaming: true, images: true },
      async generate(request) {
        const http = await fetchWithRetry(httpRequest(request, false));
        const body = await readJson(http, provider);
        return { ...parseOllamaResponse(body, { provider, request, secrets }), modelId: id };
      },
      async *stream(request): AsyncGenerator<ModelChunk, void, undefined> {
        const http = await fetchWithRetry(httpRequest(request, true));
        for await (const chunk of parseOllamaStream(responseLines(http), { provider, request, secrets })) {
          yield chunk.type === 'response' ? { type: 'response', response: { ...chunk.response, modelId: id } } : chunk;
        }
      },
    },
    TOOL_NAME_RULES.ollama,
  );
}
