import type { EmbeddingProvider } from './embedding-provider.js';
import type { MemoryHit, MemorySearchOptions, Rerank } from './memory-store.js';

/** The constant of reciprocal-rank fusion; 60 is the value from the original paper (Cormack et al., 2009). */
const RRF_K = 60;

/** Cosine similarity of two vectors; 0 when either is all zeros. */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Fuses ranked lists by reciprocal rank: score = Σ 1 / (60 + rank). It needs no score calibration
 * between BM25 and cosine similarity, which live on unrelated scales.
 */
export function reciprocalRankFusion(lists: MemoryHit[][]): MemoryHit[] {
  const fused = new Map<string, MemoryHit>();
  for (const list of lists) {
    list.forEach((hit, rank) => {
      const entry = fused.get(hit.memory.id) ?? { memory: hit.memory, score: 0 };
      entry.score += 1 / (RRF_K + rank + 1);
      fused.set(hit.memory.id, entry);
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score);
}

/** How a memory store ranks what `search` finds; every store takes these options. */
export interface MemoryRanking {
  /** Turns on hybrid search (full-text + cosine similarity, fused by reciprocal rank). */
  embed?: EmbeddingProvider;
  /** Reorders the candidates before the top `k` are kept. */
  rerank?: Rerank;
}

export interface RankMemoriesOptions {
  query: string;
  /** The caller's `search` options: `k` (default 5) and `signal`. */
  search: MemorySearchOptions;
  /** The store's ranking options. */
  ranking: MemoryRanking;
  /** Full-text candidates, best first. */
  lexical: (limit: number) => Promise<MemoryHit[]>;
  /** Vector candidates for a query embedding, best first. */
  vector: (embedding: number[], limit: number) => Promise<MemoryHit[]>;
}

/** The search pipeline every store shares: full text, plus vectors and fusion when embeddings are on, then the rerank hook. */
export async function rankMemories(options: RankMemoriesOptions): Promise<MemoryHit[]> {
  const { k = 5, signal } = options.search;
  const { embed, rerank } = options.ranking;
  const pool = Math.max(k * 4, 20);
  let hits: MemoryHit[];
  if (embed) {
    const [lexical, [embedding]] = await Promise.all([options.lexical(pool), embed.embed([options.query], { signal })]);
    hits = reciprocalRankFusion([lexical, await options.vector(embedding, pool)]);
  } else {
    hits = await options.lexical(rerank ? pool : k);
  }
  if (rerank) hits = await rerank(options.query, hits, signal);
  return hits.slice(0, k);
}
