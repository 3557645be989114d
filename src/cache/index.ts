export { type CachedModelOptions, type CacheStore, cachedModel, cacheKey, memoryCacheStore } from './cached-model.js';
export { SqliteCacheStore, withCache } from './sqlite-cache-store.js';
