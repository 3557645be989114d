import {
  cursorAfter,
  DEFAULT_PAGE,
  MAX_PAGE,
  type PruneRequest,
  type PruneResult,
  pruneBounds,
  type RunPage,
  type RunQuery,
  type RunStoreStats,
  readCursor,
  summaryFromRow,
} from '../records/index.js';

/**
 * The listing, retention and size queries of one SQL run store, in its dialect (`db` is what it
 * queries: SQLite's database, PostgreSQL's pool and schema). Both stores build their SQL from the
 * shapes below; what differs (the JSON functions, a status list, locking) stays in each store's own.
 */
export interface RunQueries<Db> {
  /** One page of runs, newest first. */
  queryRuns(db: Db, query: RunQuery): RunPage | Promise<RunPage>;
  /** Deletes one batch of expired runs and all that is kept for them. */
  pruneRuns(db: Db, request: PruneRequest): PruneResult | Promise<PruneResult>;
  /** Counts by status, the oldest run, the size on disk. */
  stats(db: Db): RunStoreStats | Promise<RunStoreStats>;
}

/**
 * How one SQL dialect binds values: `$1, $2…` for PostgreSQL, `?` for SQLite. The query shapes below
 * are the same in both stores; what differs (the JSON functions, a status list) stays in each store's
 * own SQL.
 */
export interface SqlBinder {
  /** Binds `value` and returns its placeholder. */
  bind(value: unknown): string;
  /** A condition that `status` is one of `statuses`. */
  statusIn(statuses: readonly string[]): string;
  /** The values bound so far, in placeholder order. */
  values: unknown[];
}

/** A binder for PostgreSQL (`$n`, a status list as one array parameter). */
export function postgresBinder(): SqlBinder {
  const values: unknown[] = [];
  const bind = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  return { values, bind, statusIn: (statuses) => `status = ANY(${bind(statuses)})` };
}

/** A binder for SQLite (`?`, a status list as one placeholder each). */
export function sqliteBinder(): SqlBinder {
  const values: unknown[] = [];
  const bind = (value: unknown) => {
    values.push(value);
    return '?';
  };
  return { values, bind, statusIn: (statuses) => `status IN (${statuses.map(bind).join(', ')})` };
}

/**
 * The WHERE clause (empty when there is no filter) and the page size of a run listing, newest first:
 * by agent, owner and status, after the cursor of the page before. The caller selects `limit + 1`
 * rows, so `pageOf` knows whether there is a next page.
 */
export function pageFilter(query: RunQuery, sql: SqlBinder): { where: string; limit: number } {
  const where: string[] = [];
  if (query.agent !== undefined) where.push(`agent = ${sql.bind(query.agent)}`);
  if (query.owner !== undefined) where.push(`owner = ${sql.bind(query.owner)}`);
  if (query.thread !== undefined) where.push(`thread = ${sql.bind(query.thread)}`);
  if (query.status && query.status.length > 0) where.push(sql.statusIn(query.status));
  const cursor = query.before === undefined ? undefined : readCursor(query.before);
  if (cursor) where.push(`(created_at, id) < (${sql.bind(cursor.createdAt)}, ${sql.bind(cursor.id)})`);
  const limit = Math.min(Math.max(1, query.limit ?? DEFAULT_PAGE), MAX_PAGE);
  return { where: where.length ? `WHERE ${where.join(' AND ')}` : '', limit };
}

/** A page from up to `limit + 1` summary rows: the first `limit`, and a cursor when there are more. */
export function pageOf(rows: Parameters<typeof summaryFromRow>[0][], limit: number): RunPage {
  const runs = rows.slice(0, limit).map(summaryFromRow);
  return rows.length > limit ? { runs, next: cursorAfter(runs[runs.length - 1]) } : { runs };
}

/**
 * The bounds of a prune, given the `created_at` of the newest run past the `keepNewest` kept (from
 * `SELECT created_at … ORDER BY created_at DESC LIMIT 1 OFFSET keepNewest`): that run and every one
 * before it, its millisecond included.
 */
export function pruneBoundsAfter(request: PruneRequest, newestPruned: number | undefined) {
  return pruneBounds(request, newestPruned === undefined ? undefined : newestPruned + 1);
}

/** Runs counted by status, from `SELECT status, COUNT(*) AS n … GROUP BY status` rows. */
export function countByStatus(rows: readonly { status: string; n: number }[]): {
  runs: number;
  byStatus: Record<string, number>;
} {
  const byStatus: Record<string, number> = {};
  let runs = 0;
  for (const row of rows) {
    byStatus[row.status] = row.n;
    runs += row.n;
  }
  return { runs, byStatus };
}
