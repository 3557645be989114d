import type pg from 'pg';
import { inTransaction } from '../../memory/index.js';
import { DEFAULT_PRUNE_BATCH, UNFINISHED } from '../records/index.js';
import {
  countByStatus,
  pageFilter,
  pageOf,
  postgresBinder,
  pruneBoundsAfter,
  type RunQueries,
} from './run-query-shapes.js';

/** What the PostgreSQL store's queries run against: its pool, in its schema. */
export interface PostgresDb {
  pool: pg.Pool;
  schema: string;
}

type PostgresQueries = RunQueries<PostgresDb>;

/** One page of runs, newest first. Only the listed rows' results are parsed, for their totals. */
const queryRuns: PostgresQueries['queryRuns'] = async ({ pool, schema }, query) => {
  const sql = postgresBinder();
  const { where, limit } = pageFilter(query, sql);
  const { rows } = await pool.query(
    `SELECT id, agent, status, source, owner, created_at, updated_at,
       (r->>'durationMs')::float8 AS duration_ms, json_array_length(r->'steps') AS steps,
       (r->'usage'->>'promptTokens')::float8 + (r->'usage'->>'completionTokens')::float8 AS tokens,
       (r->'usage'->>'costUsd')::float8 AS cost_usd
     FROM (SELECT *, result::json AS r FROM ${schema}.runs ${where}
       ORDER BY created_at DESC, id DESC LIMIT ${sql.bind(limit + 1)}) AS page
     ORDER BY created_at DESC, id DESC`,
    sql.values,
  );
  return pageOf(rows, limit);
};

/**
 * Deletes one batch of expired runs and their events, steps and checkpoints in one transaction. A
 * transaction-scoped advisory lock makes API servers sharing the database prune one at a time (the
 * others skip the batch); small batches keep each transaction short and leave autovacuum able to keep up.
 */
const pruneRuns: PostgresQueries['pruneRuns'] = async ({ pool, schema }, request) => {
  const s = schema;
  let countBefore: number | undefined;
  if (request.keepNewest !== undefined) {
    const { rows } = await pool.query(`SELECT created_at FROM ${s}.runs ORDER BY created_at DESC LIMIT 1 OFFSET $1`, [
      Math.max(0, request.keepNewest),
    ]);
    countBefore = rows[0] ? Number(rows[0].created_at) : undefined;
  }
  const bounds = pruneBoundsAfter(request, countBefore);
  if (!bounds) return { runs: 0 };
  const expired = `FROM ${s}.runs WHERE created_at < $1 AND status <> ALL($4)
    AND (updated_at < $2 OR created_at < $3)`;
  const values = [bounds.createdBefore, bounds.endedBefore, bounds.countBefore, UNFINISHED];
  if (request.dryRun) {
    const { rows } = await pool.query(`SELECT COUNT(*)::int AS n ${expired}`, values);
    return { runs: rows[0].n };
  }
  return inTransaction(pool, async (client) => {
    const lock = await client.query(`SELECT pg_try_advisory_xact_lock(hashtext($1)) AS ok`, [`thinkflow.prune.${s}`]);
    if (!lock.rows[0].ok) return { runs: 0, skipped: true };
    const { rowCount } = await client.query(
      `WITH victims AS (SELECT id ${expired} ORDER BY created_at LIMIT $5 FOR UPDATE SKIP LOCKED),
         e AS (DELETE FROM ${s}.run_events WHERE run_id IN (SELECT id FROM victims)),
         st AS (DELETE FROM ${s}.run_steps WHERE run_id IN (SELECT id FROM victims)),
         c AS (DELETE FROM ${s}.run_checkpoints WHERE run_id IN (SELECT id FROM victims)),
         j AS (DELETE FROM ${s}.run_journal WHERE run_id IN (SELECT id FROM victims))
       DELETE FROM ${s}.runs WHERE id IN (SELECT id FROM victims)`,
      [...values, Math.max(1, request.limit ?? DEFAULT_PRUNE_BATCH)],
    );
    return { runs: rowCount ?? 0 };
  });
};

/** Counts by status, the oldest run, and the tables' size on disk (indexes and TOAST included). */
const stats: PostgresQueries['stats'] = async ({ pool, schema }) => {
  const s = schema;
  const counts = await pool.query<{ status: string; n: number }>(
    `SELECT status, COUNT(*)::int AS n FROM ${s}.runs GROUP BY status`,
  );
  const { runs, byStatus } = countByStatus(counts.rows);
  const { rows } = await pool.query(
    `SELECT (SELECT MIN(created_at) FROM ${s}.runs) AS oldest,
       (SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = $1 AND c.relkind = 'r') AS bytes`,
    [s],
  );
  return {
    runs,
    byStatus,
    oldest: rows[0].oldest === null ? undefined : Number(rows[0].oldest),
    bytes: Number(rows[0].bytes),
  };
};

/** The PostgreSQL store's listing, retention and size queries. */
export const postgresRunQueries: PostgresQueries = { queryRuns, pruneRuns, stats };
