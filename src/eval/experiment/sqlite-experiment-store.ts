import type Database from 'better-sqlite3';
import { openSqlite, retryBusy, type SqliteLocation } from '../../memory/node.js';
import { type ExperimentRow, experimentFromRow, metaFromRow, pagedTrials, type TrialRow } from './experiment-rows.js';
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
  private readonly insertTrial: Database.Statement<[string, number, number, string]>;
  private readonly insertBatch: (rows: [string, number, number, string][]) => void;
  private pending: [string, number, number, string][] = [];
  private waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  private scheduled = false;

  constructor(location: SqliteLocation = {}) {
    const { db, busyTimeoutMs } = openSqlite(location);
    this.db = db;
    retryBusy(() => db.exec(SCHEMA), busyTimeoutMs);
    this.insertTrial = db.prepare(
      'INSERT OR REPLACE INTO eval_trials (experiment_id, case_index, trial, record) VALUES (?, ?, ?, ?)',
    );
    this.insertBatch = db.transaction((rows: [string, number, number, string][]) => {
      for (const row of rows) this.insertTrial.run(...row);
    });
  }

  /** Commits the trials saved since the last commit, in one transaction, and settles their `saveTrial`s. */
  private flush(): void {
    this.scheduled = false;
    if (!this.pending.length) return;
    const rows = this.pending;
    const waiting = this.waiting;
    this.pending = [];
    this.waiting = [];
    try {
      this.insertBatch(rows);
    } catch (error) {
      for (const w of waiting) w.reject(error);
      return;
    }
    for (const w of waiting) w.resolve();
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
    return new Promise((resolve, reject) => {
      this.pending.push([experimentId, trial.caseIndex, trial.trial, JSON.stringify(trial)]);
      this.waiting.push({ resolve, reject });
      if (this.pending.length >= BATCH) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
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
