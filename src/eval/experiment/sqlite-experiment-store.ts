import type Database from 'better-sqlite3';
import { openSqlite, retryBusy, type SqliteLocation } from '../../memory/node.js';
import {
  type ExperimentRow,
  experimentFromRow,
  metaFromRow,
  pagedTrials,
  type TrialRow,
  trialJson,
} from './experiment-rows.js';
import type { ExperimentMeta, ExperimentStore, ExperimentSummary, TrialRecord } from './experiment-types.js';
import { trialKey } from './experiment-types.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS eval_experiments (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, started_at TEXT NOT NULL, status TEXT NOT NULL,
  meta TEXT NOT NULL, summary TEXT
);
CREATE TABLE IF NOT EXISTS eval_trials (
  experiment_id TEXT NOT NULL, case_index INTEGER NOT NULL, trial INTEGER NOT NULL, record TEXT NOT NULL,
  PRIMARY KEY (experiment_id, case_index, trial)
) WITHOUT ROWID;`;

/** Trials written in one transaction at most. */
const BATCH = 256;

/**
 * Experiments in SQLite (better-sqlite3): `thinkflow.db` under the data dir, or any file. Each trial is
 * one row. Trials saved in the same turn of the event loop are committed together, in one transaction
 * (at most 256 a transaction), and `saveTrial` resolves once its trial is committed: `runExperiment`
 * counts a trial finished only then, so a process killed midway loses no trial it reported finished (the
 * trials of an uncommitted batch run again on `resume`).
 *
 * @example
 * const store = new SqliteExperimentStore({ dataDir: '.thinkflow' });
 * await runExperiment({ name: 'support', data, task, scorers, store });
 */
export class SqliteExperimentStore implements ExperimentStore {
  private readonly db: Database.Database;
  /** `INSERT … VALUES (?, ?, ?, ?), …` for n rows, prepared once per n. */
  private readonly inserts = new Map<number, Database.Statement<unknown[]>>();
  private readonly insertBatch: (values: unknown[]) => void;
  /** The pending rows' values, four a row, bound to one statement at the commit. */
  private pending: unknown[] = [];
  /** The pending trials' commit: one promise for the whole batch, settled by `flush`. */
  private batch: { saved: Promise<void>; resolve: () => void; reject: (error: unknown) => void } | undefined;

  constructor(location: SqliteLocation = {}) {
    const { db, busyTimeoutMs } = openSqlite(location);
    this.db = db;
    retryBusy(() => db.exec(SCHEMA), busyTimeoutMs);
    // At most BATCH rows wait (saveTrial commits at BATCH), so one statement inserts them all.
    this.insertBatch = db.transaction((values: unknown[]) => this.insertOf(values.length / 4).run(values));
  }

  private insertOf(rows: number): Database.Statement<unknown[]> {
    let statement = this.inserts.get(rows);
    if (!statement) {
      statement = this.db.prepare(
        `INSERT OR REPLACE INTO eval_trials (experiment_id, case_index, trial, record) VALUES ${'(?, ?, ?, ?), '.repeat(rows).slice(0, -2)}`,
      );
      this.inserts.set(rows, statement);
    }
    return statement;
  }

  /** Commits the trials saved since the last commit, in one transaction, and settles their `saveTrial`s. */
  private flush(): void {
    const { batch, pending } = this;
    if (!batch) return;
    this.batch = undefined;
    this.pending = [];
    try {
      this.insertBatch(pending);
    } catch (error) {
      batch.reject(error);
      return;
    }
    batch.resolve();
  }

  async createExperiment(meta: ExperimentMeta): Promise<void> {
    this.db
      .prepare('INSERT INTO eval_experiments (id, name, started_at, status, meta) VALUES (?, ?, ?, ?, ?)')
      .run(meta.id, meta.name, meta.startedAt, meta.status, JSON.stringify(meta));
  }

  async getExperiment(id: string): ReturnType<ExperimentStore['getExperiment']> {
    const row = this.db.prepare('SELECT meta, status, summary FROM eval_experiments WHERE id = ?').get(id) as
      | ExperimentRow
      | undefined;
    return row && experimentFromRow(row);
  }

  saveTrial(experimentId: string, trial: TrialRecord): Promise<void> {
    const batch = this.batch ?? this.openBatch();
    this.pending.push(experimentId, trial.caseIndex, trial.trial, trialJson(trial));
    if (this.pending.length >= BATCH * 4) this.flush();
    return batch.saved;
  }

  /** A new batch, committed on the next turn of the event loop (or sooner, when full or read). */
  private openBatch(): NonNullable<SqliteExperimentStore['batch']> {
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const saved = new Promise<void>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    this.batch = { saved, resolve, reject };
    setImmediate(() => this.flush());
    return this.batch;
  }

  async finishedTrials(experimentId: string): Promise<Set<string>> {
    this.flush();
    const rows = this.db
      .prepare('SELECT case_index AS c, trial AS t FROM eval_trials WHERE experiment_id = ?')
      .raw()
      .all(experimentId) as [number, number][];
    return new Set(rows.map(([c, t]) => trialKey(c, t)));
  }

  trials(experimentId: string): AsyncIterable<TrialRecord> {
    this.flush();
    const page = this.db.prepare(
      'SELECT case_index, trial, record FROM eval_trials WHERE experiment_id = ? AND (case_index > ? OR (case_index = ? AND trial > ?)) ORDER BY case_index, trial LIMIT ?',
    );
    return pagedTrials(
      ([caseIndex, trial], limit) => page.all(experimentId, caseIndex, caseIndex, trial, limit) as TrialRow[],
    );
  }

  async finishExperiment(experimentId: string, summary: ExperimentSummary): Promise<void> {
    this.flush();
    this.db
      .prepare("UPDATE eval_experiments SET status = 'done', summary = ? WHERE id = ?")
      .run(JSON.stringify(summary), experimentId);
  }

  async listExperiments(limit = 50): Promise<ExperimentMeta[]> {
    const rows = this.db
      .prepare('SELECT meta, status FROM eval_experiments ORDER BY started_at DESC LIMIT ?')
      .all(limit) as ExperimentRow[];
    return rows.map(metaFromRow);
  }

  async close(): Promise<void> {
    this.flush();
    this.db.close();
  }
}
