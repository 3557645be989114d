import type { ModelChunk, ModelRequest, ModelResponse, ToolNameRule } from '../../core/index.js';
import { withUsage } from '../estimate-usage.js';
import {
  fetchWithRetry,
  type HttpRequest,
  type HttpResponse,
  readJson,
  resilience,
  responseLines,
  type SseEvent,
  sseEvents,
} from '../http/index.js';
import type { Model, ModelCapabilities } from '../model.js';
import { isJsonResponse, responseChunks } from '../response-chunks.js';
import type { HttpModelOptions } from './http-model-options.js';
import { withWireToolNames } from './wire-tool-names.js';

/** What `parse` and `parseStream` know of the call they read. */
export interface SseChatCall {
  provider: string;
  /** Strings that must never appear in an error (the API key). */
  secrets: readonly (string | undefined)[];
  request: ModelRequest;
}

/** What one chat API does its own way; the rest of the model is shared. */
export interface SseChatApi {
  id: string;
  /** The provider name used in errors. */
  provider: string;
  /** The user's options: timeout, retries and context window are applied here, the same for every API. */
  options: HttpModelOptions;
  /** Strings that must never appear in an error (the API key). */
  secrets: readonly (string | undefined)[];
  /** Where and what to send for a model request, asking for a stream when `stream` is true. */
  request(request: ModelRequest, stream: boolean): Pick<HttpRequest, 'url' | 'headers' | 'body'>;
  /** A whole JSON answer. */
  parse(body: unknown, call: SseChatCall): ModelResponse;
  /** The chunks of a streamed answer, ending with its `response`. */
  parseStream(events: AsyncIterable<SseEvent>, call: SseChatCall): AsyncIterable<ModelChunk>;
  /** What the model can do beyond native tools and streaming (images, ...). */
  capabilities?: Partial<ModelCapabilities>;
  /** The API's rule for function names (default OpenAI's); names it refuses go out under aliases. */
  toolNames?: ToolNameRule;
}

/** Who a model over a chat API is: its id, the provider named in errors, the user's options, what no error may show. */
export type SseModelIdentity = Pick<SseChatApi, 'id' | 'provider' | 'options' | 'secrets'>;

/** The identity of a model over `provider`'s API: its id is `provider:model` unless the options name one; its API key is secret. */
export function sseModelIdentity(
  provider: string,
  options: HttpModelOptions & { model: string; apiKey?: string },
): SseModelIdentity {
  return { provider, id: options.id ?? `${provider}:${options.model}`, options, secrets: [options.apiKey] };
}

/**
 * A model over a chat API that answers with JSON, or with server-sent events when streaming
 * (OpenAI chat and Responses, Anthropic, Gemini). Every reply carries the model's id and a usage
 * (estimated when the server sent none); a server that ignores `stream: true` is served as chunks anyway.
 */
export function sseChatModel(api: SseChatApi): Model {
  const { provider, secrets } = api;
  const send = (request: ModelRequest, stream: boolean) =>
    fetchWithRetry({
      provider,
      ...api.request(request, stream),
      ...resilience(api.options),
      signal: request.signal,
      secrets,
    });
  const finish = (response: ModelResponse, request: ModelRequest) =>
    withUsage({ ...response, modelId: api.id }, request);
  const answer = async (http: HttpResponse, request: ModelRequest) =>
    finish(api.parse(await readJson(http, provider), { provider, secrets, request }), request);

  return withWireToolNames(
    {
      id: api.id,
      contextWindow: api.options.contextWindow,
      capabilities: { nativeTools: true, streaming: true, images: true, ...api.capabilities },
      async generate(request) {
        return answer(await send(request, false), request);
      },
      async *stream(request): AsyncGenerator<ModelChunk, void, undefined> {
        const http = await send(request, true);
        if (isJsonResponse(http.response)) {
          // The server ignored `stream: true`: serve its whole answer as chunks.
          yield* responseChunks(await answer(http, request));
          return;
        }
        const events = sseEvents(responseLines(http));
        for await (const chunk of api.parseStream(events, { provider, secrets, request })) {
          yield chunk.type === 'response' ? { type: 'response', response: finish(chunk.response, request) } : chunk;
        }
      },
    },
    api.toolNames,
  );
}
