import { z } from 'zod';
import { ModelError } from '../core/index.js';
import type { EmbeddingProvider } from './embedding-provider.js';
import { postJson } from './post-json.js';

/** The parts of an OpenAI `/embeddings` reply we use, leniently. */
const EmbeddingsReply = z.object({
  data: z.array(z.object({ embedding: z.array(z.number()), index: z.number().nullish() })),
});

export interface OpenAIEmbeddingsOptions {
  /** Default `https://api.openai.com/v1`; any OpenAI-compatible server (vLLM, LM Studio, llama.cpp) works. */
  baseURL?: string;
  apiKey?: string;
  /** e.g. `text-embedding-3-small`. */
  model: string;
  /** Asks models that support it for shorter vectors. */
  dimensions?: number;
}

/**
 * Embeddings from an OpenAI-compatible `/embeddings` endpoint.
 *
 * @example
 * const store = new SqliteMemoryStore({ embed: openaiEmbeddings({ model: 'text-embedding-3-small', apiKey }) });
 */
export function openaiEmbeddings(options: OpenAIEmbeddingsOptions): EmbeddingProvider {
  const base = (options.baseURL ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
  const provider = 'openai-embeddings';
  return {
    id: `openai:${options.model}${options.dimensions ? `:${options.dimensions}` : ''}`,
    async embed(texts, { signal } = {}) {
      if (texts.length === 0) return [];
      const body = { model: options.model, input: texts, encoding_format: 'float', dimensions: options.dimensions };
      const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
      const parsed = EmbeddingsReply.safeParse(
        await postJson(provider, `${base}/embeddings`, body, { headers, signal }),
      );
      if (!parsed.success || parsed.data.data.length !== texts.length) {
        throw new ModelError({
          message: `${provider}: ${base}/embeddings did not answer one embedding per input.`,
          code: 'model_parse',
          provider,
          retryable: false,
        });
      }
      const rows = parsed.data.data;
      return rows
        .map((row, i) => ({ row, i }))
        .sort((a, b) => (a.row.index ?? a.i) - (b.row.index ?? b.i))
        .map((x) => x.row.embedding);
    },
  };
}
