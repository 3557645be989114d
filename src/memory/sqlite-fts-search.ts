import type Database from 'better-sqlite3';
import { queryTerms } from '../core/index.js';

/** A term in more than this share of the memories barely changes BM25 ranking but costs a scan of its postings. */
const COMMON_TERM_SHARE = 0.05;
/** Below this many memories every term is kept: scoring is cheap anyway. */
const MIN_PRUNE_CORPUS = 10_000;

/** SQL conditions (on alias `m`) and their parameters for kinds (any of) and tags (all of). */
export function filterSql(filter: { kinds?: string[]; tags?: string[] }): [string[], unknown[]] {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.kinds?.length) {
    where.push(`m.kind IN (${filter.kinds.map(() => '?').join(', ')})`);
    params.push(...filter.kinds);
  }
  for (const tag of filter.tags ?? []) {
    where.push('EXISTS (SELECT 1 FROM memory_tags t WHERE t.tag = ? AND t.memory_rowid = m.rowid)');
    params.push(tag);
  }
  return [where, params];
}

/** Per-store memo of which terms are common, and at what store size that was measured. */
export type TermCounts = Map<string, { common: boolean; size: number }>;

const quote = (terms: string[]) => terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');

/**
 * BM25 search over `memories_fts`, returning `memories` rows with a `score` (bm25, lower is better).
 * Terms OR together, so any shared word counts; on large stores, terms found in more than 5% of
 * the memories are left out (when rarer ones remain), because scoring their long postings lists
 * dominates latency while their IDF is near zero.
 */
export function ftsSearch(
  db: Database.Database,
  query: string,
  filter: { kinds?: string[]; tags?: string[] },
  limit: number,
  counts?: TermCounts,
): Record<string, unknown>[] {
  let terms = queryTerms(query);
  if (!terms.length) return [];
  const size = (db.prepare('SELECT MAX(rowid) FROM memories').pluck().get() as number | null) ?? 0;
  if (size >= MIN_PRUNE_CORPUS && terms.length > 1) {
    const cap = Math.floor(size * COMMON_TERM_SHARE);
    const count = db
      .prepare('SELECT COUNT(*) FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT ?)')
      .pluck();
    const rare = terms.filter((term) => {
      // Document frequencies move slowly: reuse a count until the store grew by a tenth.
      const known = counts?.get(term);
      if (known && Math.abs(size - known.size) < size * 0.1) return !known.common;
      const common = (count.get(quote([term]), cap) as number) >= cap;
      if (counts) {
        if (counts.size >= 10_000) counts.clear();
        counts.set(term, { common, size });
      }
      return !common;
    });
    if (rare.length) terms = rare;
  }
  const [where, params] = filterSql(filter);
  if (where.length === 0) {
    // Rank inside the FTS table first and join only the winners.
    return db
      .prepare(
        `SELECT m.*, f.score FROM (
           SELECT rowid, bm25(memories_fts, 1.0, 0.5) AS score FROM memories_fts WHERE memories_fts MATCH ? ORDER BY score LIMIT ?
         ) f JOIN memories m ON m.rowid = f.rowid ORDER BY f.score`,
      )
      .all(quote(terms), limit) as Record<string, unknown>[];
  }
  // CROSS JOIN keeps the FTS table as the outer loop: otherwise SQLite may walk the kind index and test MATCH row by row.
  return db
    .prepare(
      `SELECT m.*, bm25(memories_fts, 1.0, 0.5) AS score FROM memories_fts CROSS JOIN memories m ON m.rowid = memories_fts.rowid
       WHERE memories_fts MATCH ? AND ${where.join(' AND ')} ORDER BY score LIMIT ?`,
    )
    .all(quote(terms), ...params, limit) as Record<string, unknown>[];
}
