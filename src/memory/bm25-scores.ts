import { queryTerms, textTokens } from '../core/index.js';

const K1 = 1.2;
const B = 0.75;

/** A light English stem (plural and possessive endings), applied to both sides so they agree. */
function stem(token: string): string {
  if (token.length > 3 && token.endsWith('s') && !token.endsWith('ss')) return token.slice(0, -1);
  return token;
}

/** The stemmed tokens of a text, as the index and the query both see them. */
export function bm25Tokens(text: string): string[] {
  return textTokens(text).map(stem);
}

/**
 * Okapi BM25 scores of `documents` for a free-text query (higher is better, 0 for no shared term),
 * summed over each document's fields with `weights` (e.g. text 1.0, tags 0.5), as FTS5's `bm25()`
 * weighs its columns. Terms come from `queryTerms`, so CJK queries are segmented as the documents are.
 */
export function bm25Scores(
  query: string,
  documents: readonly (readonly string[])[][],
  weights: readonly number[],
): number[] {
  const terms = [...new Set(queryTerms(query).map(stem))];
  const n = documents.length;
  if (!terms.length || n === 0) return documents.map(() => 0);
  const scores = documents.map(() => 0);
  weights.forEach((weight, field) => {
    const lengths = documents.map((doc) => doc[field]?.length ?? 0);
    const average = lengths.reduce((a, b) => a + b, 0) / n || 1;
    for (const term of terms) {
      const counts = documents.map((doc) => (doc[field] ?? []).filter((t) => t === term).length);
      const holding = counts.filter((c) => c > 0).length;
      if (holding === 0) continue;
      const idf = Math.log((n - holding + 0.5) / (holding + 0.5) + 1);
      counts.forEach((tf, i) => {
        if (tf === 0) return;
        scores[i] += (weight * idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * lengths[i]) / average));
      });
    }
  });
  return scores;
}
