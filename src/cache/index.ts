export { type CachedModelOptions, type CacheStore, cachedModel, cacheKey, memoryCacheStore } from './cached-model.js';
