import type pg from 'pg';
import { requireOptional } from '../../core/index.js';
import { withSchemaLock } from '../../memory/index.js';
import type { EvalStore } from '../records/index.js';
import { EVAL_DDL, type EvalSql, sqlEvalStore } from './eval-sql.js';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** `?` placeholders as PostgreSQL's `$1, $2, …` (the store's statements hold no `?` in literals). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** A pool (or one client inside a transaction) behind `EvalSql`. */
function postgresEvalSql(pool: pg.Pool, client?: pg.PoolClient): EvalSql {
  const db = client ?? pool;
  return {
    all: async <T>(sql: string, params: readonly unknown[] = []) =>
      (await db.query(numbered(sql), [...params])).rows as T[],
    run: async (sql, params = []) => {
      await db.query(numbered(sql), [...params]);
    },
    async transaction(work) {
      const held = await pool.connect();
      try {
        await held.query('BEGIN');
        const result = await work(postgresEvalSql(pool, held));
        await held.query('COMMIT');
        return result;
      } catch (error) {
        await held.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        held.release();
      }
    },
    close: () => pool.end(),
  };
}

/** Options of `PostgresEvalStore`: the run store's connection string and schema. */
export interface PostgresEvalStoreOptions {
  connectionString: string;
  /** Default `thinkflow`, as the run store's. */
  schema?: string;
  /** Pool size. Default 4. */
  max?: number;
}

/**
 * Scores of runs and datasets in PostgreSQL, in the run store's schema: `thinkflow serve --pg` opens it.
 *
 * @example
 * const evals = new PostgresEvalStore({ connectionString: 'postgres://127.0.0.1:5432/thinkflow' });
 * await evals.init();
 */
export class PostgresEvalStore implements EvalStore {
  readonly #pool: pg.Pool;
  readonly #schema: string;
  readonly #store: Omit<EvalStore, 'init'>;

  constructor(options: PostgresEvalStoreOptions) {
    const schema = options.schema ?? 'thinkflow';
    if (!SCHEMA_NAME.test(schema))
      throw new TypeError(`Schema name "${schema}" must be lower-case letters, digits or "_".`);
    this.#schema = schema;
    const { Pool } = requireOptional<typeof pg>('postgres', 'pg');
    this.#pool = new Pool({ connectionString: options.connectionString, max: options.max ?? 4 });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    this.#pool.on('error', () => {});
    this.#store = sqlEvalStore(postgresEvalSql(this.#pool), `${schema}.`);
  }

  async init(): Promise<void> {
    const s = this.#schema;
    await withSchemaLock({ pool: this.#pool, schema: s }, (client) =>
      client.query(`CREATE SCHEMA IF NOT EXISTS ${s};${EVAL_DDL.replaceAll('{p}', `${s}.`)}`),
    );
  }

  addScores: EvalStore['addScores'] = (scores) => this.#store.addScores(scores);
  readScores: EvalStore['readScores'] = (runId) => this.#store.readScores(runId);
  createDataset: EvalStore['createDataset'] = (dataset) => this.#store.createDataset(dataset);
  listDatasets: EvalStore['listDatasets'] = (filter) => this.#store.listDatasets(filter);
  getDataset: EvalStore['getDataset'] = (id) => this.#store.getDataset(id);
  readDataset: EvalStore['readDataset'] = (id, version) => this.#store.readDataset(id, version);
  changeDataset: EvalStore['changeDataset'] = (id, change) => this.#store.changeDataset(id, change);
  close: EvalStore['close'] = () => this.#store.close();
}
