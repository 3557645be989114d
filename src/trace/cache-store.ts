import type { ModelResponse } from '../core/index.js';

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
