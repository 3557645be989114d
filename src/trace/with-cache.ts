import { join } from 'node:path';
import type { Model } from '../llm/index.js';
import { cachedModel } from './cached-model.js';
import { SqliteCacheStore } from './sqlite-cache-store.js';

/**
 * The CLI's `--cache`: `model` answered from `<dataDir>/cache.sqlite` when the same request was seen before.
 *
 * @example
 * const model = withCache(resolveModel(spec), options.dataDir ?? thinkflowHome());
 */
export function withCache(model: Model, dataDir: string): Model {
  return cachedModel(model, { store: new SqliteCacheStore(join(dataDir, 'cache.sqlite')) });
}
