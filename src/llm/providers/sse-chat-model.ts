import { type ModelChunk, type ModelRequest, type ModelResponse, withFields } from '../../core/index.js';
import { withUsage } from '../estimate-usage.js';
import {
  fetchWithRetry,
  type HttpRequest,
  type HttpResponse,
  readJson,
  responseLines,
  type SseEvent,
  sseEvents,
} from '../http/index.js';
import type { Model, ModelCapabilities } from '../model.js';
import { isJsonResponse, responseChunks } from '../response-chunks.js';

/** What one chat API does its own way; the rest of the model is shared. */
export interface SseChatApi {
  id: string;
  /** The provider name used in errors. */
  provider: string;
  contextWindow?: number;
  /** The HTTP request for a model request, asking for a stream when `stream` is true. */
  request(request: ModelRequest, stream: boolean): HttpRequest;
  /** A whole JSON answer to `request`. */
  parse(body: unknown, request: ModelRequest): ModelResponse;
  /** The chunks of a streamed answer to `request`, ending with its `response`. */
  parseStream(events: AsyncIterable<SseEvent>, request: ModelRequest): AsyncIterable<ModelChunk>;
  /** What the model can do beyond native tools and streaming (images, ...). */
  capabilities?: Partial<ModelCapabilities>;
}

/**
 * A model over a chat API that answers with JSON, or with server-sent events when streaming
 * (OpenAI-compatible servers, Anthropic). Every reply carries the model's id and a usage (estimated
 * when the server sent none); a server that ignores `stream: true` is served as chunks anyway.
 */
export function sseChatModel(api: SseChatApi): Model {
  const finish = (response: ModelResponse, request: ModelRequest) =>
    withUsage(withFields(response, { modelId: api.id }), request);
  const answer = async (http: HttpResponse, request: ModelRequest) =>
    finish(api.parse(await readJson(http, api.provider), request), request);

  return {
    id: api.id,
    contextWindow: api.contextWindow,
    capabilities: { nativeTools: true, streaming: true, images: true, ...api.capabilities },
    async generate(request) {
      return answer(await fetchWithRetry(api.request(request, false)), request);
    },
    async *stream(request): AsyncGenerator<ModelChunk, void, undefined> {
      const http = await fetchWithRetry(api.request(request, true));
      if (isJsonResponse(http.response)) {
        // The server ignored `stream: true`: serve its whole answer as chunks.
        yield* responseChunks(await answer(http, request));
        return;
      }
      for await (const chunk of api.parseStream(sseEvents(responseLines(http)), request)) {
        yield chunk.type === 'response' ? { type: 'response', response: finish(chunk.response, request) } : chunk;
      }
    },
  };
}
