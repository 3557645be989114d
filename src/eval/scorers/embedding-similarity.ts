import { cosineSimilarity, type EmbeddingProvider } from '../../memory/index.js';
import { createScorer, type Scorer } from './scorer.js';

/** Options of `embeddingSimilarity`. */
export interface EmbeddingSimilarityOptions {
  /** Any thinkflow embedder (`openaiEmbeddings`, `ollamaEmbeddings`, or your own `EmbeddingProvider`). */
  embedder: EmbeddingProvider;
  /** The reference text (default: the case's `expected`). */
  expected?: string;
  /** The cosine similarity at or above which the answer passes. Default 0.8. */
  passAt?: number;
  name?: string;
}

/**
 * Scores the cosine similarity of the answer's embedding and the reference's (negative similarity scores 0).
 * The reference's vector is embedded once per text and kept.
 *
 * @example
 * embeddingSimilarity({ embedder: openaiEmbeddings({ model: 'text-embedding-3-small' }), passAt: 0.85 })
 */
export function embeddingSimilarity(options: EmbeddingSimilarityOptions): Scorer {
  const passAt = options.passAt ?? 0.8;
  const known = new Map<string, Promise<number[]>>();
  const vectorOf = (text: string) => {
    let found = known.get(text);
    if (!found) {
      found = options.embedder.embed([text]).then(([vector]) => vector);
      known.set(text, found);
    }
    return found;
  };
  return createScorer({
    name: options.name ?? 'embeddingSimilarity',
    score: async ({ output, expected }) => {
      const reference = options.expected ?? (typeof expected === 'string' ? expected : undefined);
      if (reference === undefined)
        throw new Error(
          'embeddingSimilarity: no reference text (pass expected, or set the case\'s "expected" to a string)',
        );
      const [answer] = await options.embedder.embed([output]);
      const similarity = cosineSimilarity(answer, await vectorOf(reference));
      const score = Math.max(0, Math.min(1, similarity));
      return { score, pass: similarity >= passAt, reason: `cosine ${similarity.toFixed(3)}` };
    },
  });
}
