import type pg from 'pg';
import { inTransaction, openSchemaPool, withSchemaLock } from '../../memory/index.js';
import { EVAL_DDL, type EvalSql, SqlBackedEvalStore, sqlEvalStore } from './eval-sql.js';

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
    transaction: (work) => inTransaction(pool, (held) => work(postgresEvalSql(pool, held))),
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
export class PostgresEvalStore extends SqlBackedEvalStore {
  readonly #pool: pg.Pool;
  readonly #schema: string;

  constructor(options: PostgresEvalStoreOptions) {
    const { pool, schema } = openSchemaPool({ ...options, max: options.max ?? 4 });
    super(sqlEvalStore(postgresEvalSql(pool), `${schema}.`));
    this.#schema = schema;
    this.#pool = pool;
  }

  override async init(): Promise<void> {
    const s = this.#schema;
    await withSchemaLock({ pool: this.#pool, schema: s }, (client) =>
      client.query(`CREATE SCHEMA IF NOT EXISTS ${s};${EVAL_DDL.replaceAll('{p}', `${s}.`)}`),
    );
  }
}
