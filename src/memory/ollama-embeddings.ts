import { z } from 'zod';
import { ModelError } from '../core/index.js';
import type { EmbeddingProvider } from './embedding-provider.js';
import { postJson } from './post-json.js';

const EmbedReply = z.object({ embeddings: z.array(z.array(z.number())) });

export interface OllamaEmbeddingsOptions {
  /** Default `http://127.0.0.1:11434`. */
  host?: string;
  /** e.g. `nomic-embed-text`. */
  model: string;
}

/**
 * Embeddings from Ollama's `/api/embed` endpoint.
 *
 * @example
 * const store = new SqliteMemoryStore({ embed: ollamaEmbeddings({ model: 'nomic-embed-text' }) });
 */
export function ollamaEmbeddings(options: OllamaEmbeddingsOptions): EmbeddingProvider {
  const host = (options.host ?? 'http://127.0.0.1:11434').replace(/\/+$/, '');
  const provider = 'ollama-embeddings';
  return {
    id: `ollama:${options.model}`,
    async embed(texts, { signal } = {}) {
      if (texts.length === 0) return [];
      const reply = await postJson(provider, `${host}/api/embed`, { model: options.model, input: texts }, { signal });
      const parsed = EmbedReply.safeParse(reply);
      if (!parsed.success || parsed.data.embeddings.length !== texts.length) {
        throw new ModelError({
          message: `${provider}: ${host}/api/embed did not answer one embedding per input.`,
          code: 'model_parse',
          provider,
          retryable: false,
        });
      }
      return parsed.data.embeddings;
    },
  };
}
