import type pg from 'pg';
import type { AgentEvent } from '../core/index.js';
import { requireOptional, StoreError } from '../core/index.js';
import { inTransaction, withSchemaLock } from '../memory/index.js';
import { leaseFree } from './workflow-store.js';
import type { RunLease, StepRecord, WorkflowRunRecord, WorkflowStore } from './workflow-types.js';

/** Options of `postgresWorkflowStore`. */
export interface PostgresWorkflowStoreOptions {
  /** `postgres://user@host:5432/db`; or pass your own `pool`. */
  connectionString?: string;
  pool?: pg.Pool;
  /** Schema holding the tables (created if missing). Default `public`. */
  schema?: string;
}

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Workflow runs and step checkpoints in PostgreSQL, shared by every process that runs or resumes
 * them. Each finished step is one statement (one commit). Needs the optional peer `pg`.
 * @example
 * const store = postgresWorkflowStore({ connectionString: process.env.DATABASE_URL });
 * await flow.run(input, { store });
 */
export function postgresWorkflowStore(options: PostgresWorkflowStoreOptions = {}): WorkflowStore {
  const schema = options.schema ?? 'public';
  if (!IDENT.test(schema))
    throw new StoreError({ message: `Schema "${schema}" must be lower-case letters, digits or "_".` });
  const pool =
    options.pool ??
    new (requireOptional<typeof pg>('postgres', 'pg').Pool)({ connectionString: options.connectionString, max: 4 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  if (!options.pool) pool.on('error', () => {});
  const runs = `"${schema}"."thinkflow_workflow_runs"`;
  const steps = `"${schema}"."thinkflow_workflow_steps"`;
  const events = `"${schema}"."thinkflow_workflow_events"`;
  const leases = `"${schema}"."thinkflow_workflow_leases"`;
  let ready: Promise<void> | undefined;
  const init = () =>
    (ready ??= withSchemaLock({ pool, schema }, async (client) => {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${runs} (id TEXT PRIMARY KEY, workflow_id TEXT NOT NULL, status TEXT NOT NULL,
          record JSONB NOT NULL, updated_at BIGINT NOT NULL)`,
      );
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${steps} (run_id TEXT NOT NULL, path TEXT NOT NULL, record JSONB NOT NULL,
          PRIMARY KEY (run_id, path))`,
      );
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${events} (run_id TEXT NOT NULL, seq INTEGER NOT NULL, event JSONB NOT NULL,
          PRIMARY KEY (run_id, seq))`,
      );
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${leases} (run_id TEXT PRIMARY KEY, holder TEXT NOT NULL, until BIGINT NOT NULL)`,
      );
    }).catch((error: unknown) => {
      ready = undefined;
      throw error;
    }));
  const query = async <R extends pg.QueryResultRow>(sql: string, values: unknown[]) => {
    await init();
    return pool.query<R>(sql, values);
  };
  /** Runs `work` in one transaction on one client, once the tables exist. */
  const transaction = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    await init();
    return inTransaction(pool, work);
  };
  /** The run's lease row, locked until the transaction ends (a missing row is locked by the advisory lock). */
  const lockedLease = async (client: pg.PoolClient, runId: string): Promise<RunLease | undefined> => {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 1))', [`${schema}.${runId}`]);
    const { rows } = await client.query<{ holder: string; until: string }>(
      `SELECT holder, until FROM ${leases} WHERE run_id = $1`,
      [runId],
    );
    return rows[0] && { holder: rows[0].holder, until: Number(rows[0].until) };
  };
  return {
    async createRun(run, initial = {}) {
      await transaction(async (client) => {
        await client.query(
          `INSERT INTO ${runs} (id, workflow_id, status, record, updated_at) VALUES ($1, $2, $3, $4, $5)`,
          [run.id, run.workflowId, run.status, JSON.stringify(run), run.updatedAt],
        );
        for (const [path, record] of Object.entries(initial)) {
          await client.query(`INSERT INTO ${steps} (run_id, path, record) VALUES ($1, $2, $3)`, [
            run.id,
            path,
            JSON.stringify(record),
          ]);
        }
      });
    },
    async getRun(runId) {
      const { rows } = await query<{ record: WorkflowRunRecord }>(`SELECT record FROM ${runs} WHERE id = $1`, [runId]);
      return rows[0]?.record;
    },
    async updateRun(runId, patch) {
      // One statement: the patch is merged into the stored record by PostgreSQL, so two writers never lose each other's fields.
      const now = Date.now();
      const clean = JSON.parse(JSON.stringify({ ...patch, updatedAt: now }));
      const cleared = Object.keys(patch).filter((key) => patch[key as keyof typeof patch] === undefined);
      await query(
        `UPDATE ${runs} SET record = (record - $4::text[]) || $2::jsonb, status = COALESCE($2::jsonb->>'status', status), updated_at = $3 WHERE id = $1`,
        [runId, JSON.stringify(clean), now, cleared],
      );
    },
    async loadSteps(runId) {
      const { rows } = await query<{ path: string; record: StepRecord }>(
        `SELECT path, record FROM ${steps} WHERE run_id = $1`,
        [runId],
      );
      return Object.fromEntries(rows.map((row) => [row.path, row.record]));
    },
    async loadStepsAt(runId, paths) {
      const { rows } = await query<{ path: string; record: StepRecord }>(
        `SELECT path, record FROM ${steps} WHERE run_id = $1 AND path = ANY($2::text[])`,
        [runId, paths],
      );
      return Object.fromEntries(rows.map((row) => [row.path, row.record]));
    },
    async saveStep(runId, path, record) {
      await query(
        `INSERT INTO ${steps} (run_id, path, record) VALUES ($1, $2, $3) ON CONFLICT (run_id, path) DO UPDATE SET record = excluded.record`,
        [runId, path, JSON.stringify(record)],
      );
    },
    async deleteSteps(runId, paths) {
      await query(`DELETE FROM ${steps} WHERE run_id = $1 AND path = ANY($2::text[])`, [runId, paths]);
    },
    async listRuns(filter) {
      const where: string[] = [];
      const values: (string | number)[] = [];
      const add = (sql: string, value: string | number) => {
        values.push(value);
        where.push(sql.replace('?', `$${values.length}`));
      };
      if (filter.workflowId !== undefined) add('workflow_id = ?', filter.workflowId);
      if (filter.status !== undefined) add('status = ?', filter.status);
      if (filter.owner !== undefined) add("record->>'owner' = ?", filter.owner);
      if (filter.before !== undefined) add("(record->>'createdAt')::bigint < ?", filter.before);
      values.push(filter.limit);
      const { rows } = await query<{ record: WorkflowRunRecord }>(
        `SELECT record FROM ${runs} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY (record->>'createdAt')::bigint DESC LIMIT $${values.length}`,
        values,
      );
      return rows.map((row) => row.record);
    },
    async runIdsWithStatus(status) {
      const { rows } = await query<{ id: string }>(`SELECT id FROM ${runs} WHERE status = $1`, [status]);
      return rows.map((row) => row.id);
    },
    async appendEvents(runId, more) {
      if (more.length === 0) return;
      // Numbered under a per-run advisory lock: the orchestrator and the workers of one run append alike.
      await transaction(async (client) => {
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 2))', [`${schema}.${runId}`]);
        await client.query(
          `INSERT INTO ${events} (run_id, seq, event)
           SELECT $1, COALESCE((SELECT MAX(seq) FROM ${events} WHERE run_id = $1), 0) + n, e
           FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS t(e, n)`,
          [runId, JSON.stringify(more)],
        );
      });
    },
    async readEvents(runId, afterSeq, limit = 1000) {
      const { rows } = await query<{ seq: number; event: AgentEvent }>(
        `SELECT seq, event FROM ${events} WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
        [runId, afterSeq, limit],
      );
      return rows;
    },
    async claimRun(runId, lease, expected) {
      return transaction(async (client) => {
        if (!leaseFree(await lockedLease(client, runId), lease, expected)) return false;
        await client.query(
          `INSERT INTO ${leases} (run_id, holder, until) VALUES ($1, $2, $3)
           ON CONFLICT (run_id) DO UPDATE SET holder = excluded.holder, until = excluded.until`,
          [runId, lease.holder, lease.until],
        );
        return true;
      });
    },
    async leaseOf(runId) {
      const { rows } = await query<{ holder: string; until: string }>(
        `SELECT holder, until FROM ${leases} WHERE run_id = $1`,
        [runId],
      );
      return rows[0] && { holder: rows[0].holder, until: Number(rows[0].until) };
    },
    async releaseRun(runId, holder) {
      await query(`DELETE FROM ${leases} WHERE run_id = $1 AND holder = $2`, [runId, holder]);
    },
    async close() {
      if (!options.pool) await pool.end();
    },
  };
}
