import type Database from 'better-sqlite3';
import { openSqliteTables } from '../../memory/node.js';
import { EVAL_DDL, type EvalSql, SqlBackedEvalStore, sqlEvalStore } from './eval-sql.js';

/** better-sqlite3 behind `EvalSql`: statements cached, transactions as BEGIN IMMEDIATE … COMMIT taking turns. */
function sqliteEvalSql(db: Database.Database): EvalSql {
  const statements = new Map<string, Database.Statement>();
  const statement = (sql: string) => {
    let found = statements.get(sql);
    if (!found) {
      found = db.prepare(sql);
      statements.set(sql, found);
    }
    return found;
  };
  const direct: EvalSql = {
    all: async <T>(sql: string, params: readonly unknown[] = []) => statement(sql).all(...params) as T[],
    run: async (sql, params = []) => {
      statement(sql).run(...params);
    },
    transaction: (work) => inTransaction(work),
    close: async () => {
      db.close();
    },
  };
  // The statements inside are synchronous, but `work` awaits between them: another transaction of this
  // store must not BEGIN in the middle, so they queue.
  let turns: Promise<unknown> = Promise.resolve();
  const inTransaction = <T>(work: (sql: EvalSql) => Promise<T>): Promise<T> => {
    const next = turns.then(async () => {
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = await work(direct);
        db.exec('COMMIT');
        return result;
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    });
    turns = next.catch(() => {});
    return next;
  };
  return direct;
}

/**
 * Scores of runs and datasets in SQLite, beside the runs: `thinkflow serve` opens it on `runs.db`.
 *
 * @example
 * const evals = new SqliteEvalStore({ path: '.thinkflow/runs.db' });
 * const app = createApp({ agents, store, evals });
 */
export class SqliteEvalStore extends SqlBackedEvalStore {
  constructor(options: { path: string; busyTimeoutMs?: number }) {
    const { db } = openSqliteTables(
      { file: options.path, busyTimeoutMs: options.busyTimeoutMs },
      'create the eval tables in',
      (db) => db.exec(EVAL_DDL.replaceAll('{p}', '')),
    );
    super(sqlEvalStore(sqliteEvalSql(db), ''));
  }
}
