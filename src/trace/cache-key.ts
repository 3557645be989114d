import { createHash } from 'node:crypto';
import type { ModelRequest } from '../core/index.js';
import { stableJson } from './stable-json.js';

/**
 * The cache key of a request: SHA-256 (hex) of the stable JSON of the model id, messages, tools and
 * sampling settings. The abort signal is not part of it.
 */
export function cacheKey(modelId: string, request: ModelRequest): string {
  const { messages, tools, temperature, maxTokens, stop } = request;
  const text = stableJson({ model: modelId, messages, tools, temperature, maxTokens, stop });
  return createHash('sha256').update(text).digest('hex');
}
