import type pg from 'pg';
import { withPooledClient } from '../../memory/index.js';
import type { RecoverableRun } from '../records/index.js';
import { UNFINISHED } from '../records/index.js';

// The database's clock in milliseconds: leases are compared on one clock, whatever the workers' say.
const NOW_MS = `(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/** The columns and table queue mode adds to the runs schema (idempotent). */
export function leaseDdl(s: string): string {
  // ALTER TABLE only when the columns are missing: it takes an exclusive lock on runs even when there
  // is nothing to add, and every query of every process would queue behind it.
  return `
      DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM information_schema.columns
            WHERE table_schema = '${s}' AND table_name = 'runs' AND column_name = 'lease_until') THEN
          ALTER TABLE ${s}.runs ADD COLUMN IF NOT EXISTS lease_owner TEXT, ADD COLUMN IF NOT EXISTS lease_until BIGINT;
        END IF;
      END $$;
      -- A run stored whose job may not be in Redis yet: the relay deletes the row once the job is added.
      CREATE TABLE IF NOT EXISTS ${s}.run_outbox (run_id TEXT PRIMARY KEY, created_at BIGINT NOT NULL);`;
}

export async function claimLease(pool: pg.Pool, s: string, lease: { runId: string; owner: string; ms: number }) {
  const { rowCount } = await pool.query(
    `UPDATE ${s}.runs SET lease_owner = $2, lease_until = ${NOW_MS} + $3
     WHERE id = $1 AND (lease_until IS NULL OR lease_until < ${NOW_MS} OR lease_owner = $2)`,
    [lease.runId, lease.owner, lease.ms],
  );
  return (rowCount ?? 0) > 0;
}

export async function renewLeases(
  pool: pg.Pool,
  s: string,
  lease: { runIds: readonly string[]; owner: string; ms: number },
) {
  if (lease.runIds.length === 0) return;
  await pool.query(`UPDATE ${s}.runs SET lease_until = ${NOW_MS} + $3 WHERE id = ANY($1) AND lease_owner = $2`, [
    lease.runIds,
    lease.owner,
    lease.ms,
  ]);
}

export async function releaseLeases(pool: pg.Pool, s: string, lease: { runIds: readonly string[]; owner: string }) {
  if (lease.runIds.length === 0) return;
  await pool.query(
    `UPDATE ${s}.runs SET lease_owner = NULL, lease_until = NULL WHERE id = ANY($1) AND lease_owner = $2`,
    [lease.runIds, lease.owner],
  );
}

/**
 * The recovery scan under an advisory lock, as the pruner takes: API servers sharing the database
 * recover one at a time, and a process that dies mid-pass drops the lock with its connection. The lock
 * is the session's, not a transaction's: the pass waits on Redis, and an open transaction would hold
 * its lock on `runs` all that time.
 */
export async function withRecoverableRuns(
  pool: pg.Pool,
  s: string,
  work: (runs: RecoverableRun[]) => Promise<void>,
  limit: number,
): Promise<boolean> {
  const key = `thinkflow.recover.${s}`;
  return withPooledClient(pool, async (client) => {
    const lock = await client.query(`SELECT pg_try_advisory_lock(hashtext($1)) AS ok`, [key]);
    if (!lock.rows[0].ok) return false;
    try {
      const { rows } = await client.query<{
        id: string;
        agent: string;
        status: RecoverableRun['status'];
        outboxed: boolean;
        created_at: string;
      }>(
        `SELECT r.id, r.agent, r.status, o.run_id IS NOT NULL AS outboxed, r.created_at FROM ${s}.runs r
           LEFT JOIN ${s}.run_outbox o ON o.run_id = r.id
         WHERE r.status = ANY($1) AND (r.lease_until IS NULL OR r.lease_until < ${NOW_MS})
         ORDER BY r.created_at LIMIT $2`,
        [UNFINISHED, limit],
      );
      await work(
        rows.map((row) => ({
          id: row.id,
          agent: row.agent,
          status: row.status,
          outboxed: row.outboxed,
          createdAt: Number(row.created_at),
        })),
      );
      return true;
    } finally {
      // A connection that cannot unlock is dropped on release, and its lock with it.
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
    }
  });
}
