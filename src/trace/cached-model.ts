import type { ModelChunk, ModelRequest, ModelResponse } from '../core/index.js';
import type { Model } from '../llm/index.js';
import { cacheKey } from './cache-key.js';
import type { CacheStore } from './cache-store.js';

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
