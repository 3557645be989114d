import type pg from 'pg';
import { requireOptional, StoreError } from '../core/index.js';
import { withSchemaLock } from '../memory/index.js';
import type { StepRecord, WorkflowRunRecord, WorkflowStore } from './workflow-types.js';

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
    }).catch((error: unknown) => {
      ready = undefined;
      throw error;
    }));
  const query = async <R extends pg.QueryResultRow>(sql: string, values: unknown[]) => {
    await init();
    return pool.query<R>(sql, values);
  };
  return {
    async createRun(run, initial = {}) {
      await init();
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
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
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
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
    async saveStep(runId, path, record) {
      await query(
        `INSERT INTO ${steps} (run_id, path, record) VALUES ($1, $2, $3) ON CONFLICT (run_id, path) DO UPDATE SET record = excluded.record`,
        [runId, path, JSON.stringify(record)],
      );
    },
    async deleteSteps(runId, paths) {
      await query(`DELETE FROM ${steps} WHERE run_id = $1 AND path = ANY($2::text[])`, [runId, paths]);
    },
    async runIdsWithStatus(status) {
      const { rows } = await query<{ id: string }>(`SELECT id FROM ${runs} WHERE status = $1`, [status]);
      return rows.map((row) => row.id);
    },
    async close() {
      if (!options.pool) await pool.end();
    },
  };
}
