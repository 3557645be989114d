import type Database from 'better-sqlite3';
import { DEFAULT_PRUNE_BATCH, type RunStoreStats, UNFINISHED } from '../records/index.js';
import {
  countByStatus,
  pageFilter,
  pageOf,
  pruneBoundsAfter,
  type RunQueries,
  sqliteBinder,
} from './run-query-shapes.js';

type SqliteQueries = RunQueries<Database.Database>;

const UNFINISHED_LIST = UNFINISHED.map((status) => `'${status}'`).join(', ');

/** Summaries read from the stored result without parsing it in JS (a result holds every step). */
const SUMMARY_COLUMNS = `id, agent, status, source, owner, created_at, updated_at,
  json_extract(result, '$.durationMs') AS duration_ms,
  json_array_length(result, '$.steps') AS steps,
  json_extract(result, '$.usage.promptTokens') + json_extract(result, '$.usage.completionTokens') AS tokens,
  json_extract(result, '$.usage.costUsd') AS cost_usd`;

/** One page of the SQLite store's runs, newest first. */
const queryRuns: SqliteQueries['queryRuns'] = (db, query) => {
  const sql = sqliteBinder();
  const { where, limit } = pageFilter(query, sql);
  const rows = db
    .prepare(
      `SELECT ${SUMMARY_COLUMNS} FROM runs ${where}
       ORDER BY created_at DESC, id DESC LIMIT ${sql.bind(limit + 1)}`,
    )
    .all(...sql.values) as Parameters<typeof pageOf>[0];
  return pageOf(rows, limit);
};

/**
 * Deletes one batch of expired runs and everything kept for them in one transaction, then hands the
 * freed pages back to the OS (incremental auto-vacuum; a file made before it keeps them for reuse).
 */
const pruneRuns: SqliteQueries['pruneRuns'] = (db, request) => {
  const countBefore =
    request.keepNewest === undefined
      ? undefined
      : (
          db
            .prepare('SELECT created_at FROM runs ORDER BY created_at DESC LIMIT 1 OFFSET ?')
            .get(Math.max(0, request.keepNewest)) as { created_at: number } | undefined
        )?.created_at;
  const bounds = pruneBoundsAfter(request, countBefore);
  if (!bounds) return { runs: 0 };
  const expired = `FROM runs WHERE created_at < @createdBefore AND status NOT IN (${UNFINISHED_LIST})
    AND (updated_at < @endedBefore OR created_at < @countBefore)`;
  const params = bounds;
  if (request.dryRun) {
    return { runs: (db.prepare(`SELECT COUNT(*) AS n ${expired}`).get(params) as { n: number }).n };
  }
  const limit = Math.max(1, request.limit ?? DEFAULT_PRUNE_BATCH);
  const deleted = db.transaction(() => {
    const ids = (
      db.prepare(`SELECT id ${expired} ORDER BY created_at LIMIT @limit`).all({ ...params, limit }) as { id: string }[]
    ).map((row) => row.id);
    if (ids.length === 0) return 0;
    const list = JSON.stringify(ids);
    for (const table of ['run_event_blocks', 'run_steps', 'run_checkpoints', 'run_journal']) {
      db.prepare(`DELETE FROM ${table} WHERE run_id IN (SELECT value FROM json_each(?))`).run(list);
    }
    db.prepare('DELETE FROM runs WHERE id IN (SELECT value FROM json_each(?))').run(list);
    return ids.length;
  })();
  if (deleted > 0) db.pragma('incremental_vacuum');
  return { runs: deleted };
};

/** Counts by status, the oldest run and the file's size (sync: vacuum reads it around its work). */
export function sqliteStats(db: Database.Database): RunStoreStats {
  const { runs, byStatus } = countByStatus(
    db.prepare('SELECT status, COUNT(*) AS n FROM runs GROUP BY status').all() as { status: string; n: number }[],
  );
  const oldest = (db.prepare('SELECT MIN(created_at) AS t FROM runs').get() as { t: number | null }).t;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  const incrementalVacuum = (db.pragma('auto_vacuum', { simple: true }) as number) === 2;
  return {
    runs,
    byStatus,
    oldest: oldest ?? undefined,
    bytes: pages * pageSize,
    freeBytes: free * pageSize,
    incrementalVacuum,
  };
}

/** The SQLite store's listing, retention and size queries. */
export const sqliteRunQueries: SqliteQueries = { queryRuns, pruneRuns, stats: sqliteStats };
