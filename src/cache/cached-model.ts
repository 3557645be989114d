import { type ModelChunk, type ModelRequest, type ModelResponse, sha256Hex, stableJson } from '../core/index.js';
import type { Model } from '../llm/index.js';

/** Where `cachedModel` keeps replies. `SqliteCacheStore` is the default; `memoryCacheStore` suits tests. */
export interface CacheStore {
  get(key: string): ModelResponse | undefined;
  set(key: string, response: ModelResponse, modelId: string): void;
}

/** A cache that lives only as long as the process. */
export function memoryCacheStore(): CacheStore & { readonly size: number } {
  const entries = new Map<string, ModelResponse>();
  return {
    get: (key) => entries.get(key),
    set: (key, response) => {
      entries.set(key, response);
    },
    get size() {
      return entries.size;
    },
  };
}

/**
 * The cache key of a request: SHA-256 (hex) of the stable JSON of the model id, messages, tools and
 * sampling settings. The abort signal is not part of it.
 */
export function cacheKey(modelId: string, request: ModelRequest): string {
  const { messages, tools, temperature, topP, maxTokens, stop } = request;
  const text = stableJson({ model: modelId, messages, tools, temperature, topP, maxTokens, stop });
  return sha256Hex(text);
}

export interface CachedModelOptions {
  store: CacheStore;
}

/**
 * Wraps a model so a request it has seen before (same model id, messages, tools and settings) is
 * answered from `store` without calling the model. A hit has `cached: true`, its `cacheKey`, and
 * zero usage, so the loop emits `cache_hit` and counts no cost. Errors are never cached.
 *
 * @example
 * const model = cachedModel(openaiCompatible({ model: 'gpt-4o-mini' }), { store: new SqliteCacheStore('cache.sqlite') });
 */
export function cachedModel(model: Model, options: CachedModelOptions): Model {
  const { store } = options;

  function hit(key: string): ModelResponse | undefined {
    const stored = store.get(key);
    if (!stored) return undefined;
    return { ...stored, usage: { promptTokens: 0, completionTokens: 0 }, cached: true, cacheKey: key };
  }

  function remember(key: string, response: ModelResponse): void {
    const { cached: _cached, cacheKey: _key, ...clean } = response;
    store.set(key, clean, model.id);
  }

  return {
    id: model.id,
    capabilities: model.capabilities,
    contextWindow: model.contextWindow,
    async generate(request: ModelRequest): Promise<ModelResponse> {
      const key = cacheKey(model.id, request);
      const found = hit(key);
      if (found) return found;
      const response = await model.generate(request);
      remember(key, response);
      return response;
    },
    async *stream(request: ModelRequest): AsyncIterable<ModelChunk> {
      const key = cacheKey(model.id, request);
      const found = hit(key);
      if (found) {
        if (found.text) yield { type: 'text_delta', text: found.text };
        for (const [index, call] of (found.toolCalls ?? []).entries()) {
          yield { type: 'tool_call_delta', index, id: call.id, name: call.name, argumentsDelta: call.arguments };
        }
        yield { type: 'response', response: found };
        return;
      }
      for await (const chunk of model.stream(request)) {
        if (chunk.type === 'response') remember(key, chunk.response);
        yield chunk;
      }
    },
  };
}
