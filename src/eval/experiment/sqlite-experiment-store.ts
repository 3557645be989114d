import type Database from 'better-sqlite3';
import { ConfigError } from '../../core/index.js';
import { openSqlite, retryBusy, type SqliteLocation } from '../../memory/node.js';
import { type ExperimentRow, experimentFromRow, metaFromRow, pagedTrials, type TrialRow } from './experiment-rows.js';
import type { ExperimentMeta, ExperimentStore, ExperimentSummary, TrialRecord } from './experiment-types.js';
import { trialKey } from './experiment-types.js';
import { ChunkBuilder, type ChunkEntry, mergeTrials, orderedChunkTrials, trialsFromChunk } from './trial-chunks.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS eval_experiments (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, started_at TEXT NOT NULL, status TEXT NOT NULL,
  meta TEXT NOT NULL, summary TEXT
);
CREATE TABLE IF NOT EXISTS eval_trials (
  experiment_id TEXT NOT NULL, case_index INTEGER NOT NULL, trial INTEGER NOT NULL, record TEXT NOT NULL,
  PRIMARY KEY (experiment_id, case_index, trial)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS eval_trial_chunks (
  chunk INTEGER PRIMARY KEY, experiment_id TEXT NOT NULL, first_case INTEGER NOT NULL, trials TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS eval_trial_chunks_experiment ON eval_trial_chunks (experiment_id, first_case);`;

/** The page size of a file this store creates (an existing file keeps its own). */
const PAGE_SIZE = 8192;

/** An experiment's row: id, name, start, status and its meta as JSON. */
type ExperimentInsert = [string, string, string, string, string];

/** Trials written in one transaction at most (a commit costs 40 to 150 µs here, a trial's share of its row 0.5). */
const BATCH = 1024;

/**
 * Experiments in SQLite (better-sqlite3): `thinkflow.db` under the data dir, or any file. Trials saved in
 * the same turn of the event loop are committed together (at most 1,024 a transaction) as one row of
 * `eval_trial_chunks` per experiment (see trial-chunks.ts), and `saveTrial` resolves once its trial is
 * committed: `runExperiment` counts a trial finished only then, so a process killed midway loses no trial
 * it reported finished (the trials of an uncommitted batch run again on `resume`). Trials stored one a
 * row in `eval_trials` (before the chunks) are still read.
 *
 * @example
 * const store = new SqliteExperimentStore({ dataDir: '.thinkflow' });
 * await runExperiment({ name: 'support', data, task, scorers, store });
 */
export class SqliteExperimentStore implements ExperimentStore {
  private readonly db: Database.Database;
  private readonly insertChunk: Database.Statement<[string, number, string]>;
  private readonly writeChunks: (
    created: ExperimentInsert[],
    pending: Map<string, ChunkBuilder>,
    also?: () => void,
  ) => void;
  /** Experiments created since the last commit: their rows go in with it. */
  private created: ExperimentInsert[] = [];
  /** A commit that failed with an experiment's row in it: what the store's next calls fail with. */
  private failed: { error: unknown } | undefined;
  /** The pending trials by experiment, as the chunk row each will be at the commit. */
  private pending = new Map<string, ChunkBuilder>();
  private unsaved = 0;
  /** The pending trials' commit: one promise for the whole batch, settled by `flush`. */
  private batch: { saved: Promise<void>; resolve: () => void; reject: (error: unknown) => void } | undefined;
  /** Statements by their SQL, prepared once (preparing one costs more than running it). */
  private readonly statements = new Map<string, Database.Statement<unknown[]>>();

  constructor(location: SqliteLocation = {}) {
    // A new file gets 8 KB pages, as the run store gives its own: a commit's chunk row spans fewer pages.
    const { db, busyTimeoutMs } = openSqlite({ ...location, pageSize: PAGE_SIZE });
    this.db = db;
    retryBusy(() => db.exec(SCHEMA), busyTimeoutMs);
    this.insertChunk = db.prepare('INSERT INTO eval_trial_chunks (experiment_id, first_case, trials) VALUES (?, ?, ?)');
    const insertExperiment = db.prepare<ExperimentInsert>(
      'INSERT INTO eval_experiments (id, name, started_at, status, meta) VALUES (?, ?, ?, ?, ?)',
    );
    this.writeChunks = db.transaction(
      (created: ExperimentInsert[], pending: Map<string, ChunkBuilder>, also?: () => void) => {
        for (const row of created) insertExperiment.run(...row);
        for (const [experimentId, chunk] of pending) this.insertChunk.run(experimentId, chunk.firstCase, chunk.json());
        also?.();
      },
    );
  }

  private statement(sql: string): Database.Statement<unknown[]> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Commits the trials saved since the last commit, in one transaction (with `also`'s statements, when
   * given), and settles their `saveTrial`s.
   */
  private flush(also?: () => void): void {
    const { batch, pending, created } = this;
    if (!batch) {
      also?.();
      return;
    }
    this.batch = undefined;
    this.pending = new Map();
    this.created = [];
    this.unsaved = 0;
    try {
      this.writeChunks(created, pending, also);
    } catch (error) {
      if (created.length) this.failed ??= { error };
      batch.reject(error);
      if (also) throw error;
      return;
    }
    batch.resolve();
  }

  /**
   * The experiment's row is committed with its first trials, or on the next turn of the event loop when
   * none come sooner (a commit of its own cost 0.1 µs a case of a 1,000-case experiment of the bench). An
   * id already taken is refused at once.
   */
  async createExperiment(meta: ExperimentMeta): Promise<void> {
    if (this.failed) throw this.failed.error;
    if (
      this.created.some(([id]) => id === meta.id) ||
      this.statement('SELECT 1 FROM eval_experiments WHERE id = ?').get(meta.id)
    ) {
      throw new ConfigError({
        message: `An experiment "${meta.id}" is in this store already: resume it, or give the new one another id.`,
      });
    }
    this.created.push([meta.id, meta.name, meta.startedAt, meta.status, JSON.stringify(meta)]);
    this.batch ?? this.openBatch();
  }

  async getExperiment(id: string): ReturnType<ExperimentStore['getExperiment']> {
    this.flush();
    const row = this.statement('SELECT meta, status, summary FROM eval_experiments WHERE id = ?').get(id) as
      | ExperimentRow
      | undefined;
    return row && experimentFromRow(row);
  }

  saveTrial(experimentId: string, trial: TrialRecord): Promise<void> {
    if (this.failed) return Promise.reject(this.failed.error);
    const batch = this.batch ?? this.openBatch();
    const chunk = this.pending.get(experimentId);
    if (chunk) chunk.add(trial);
    else this.pending.set(experimentId, new ChunkBuilder(trial));
    if (++this.unsaved >= BATCH) this.flush();
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
    // A batch holding only an experiment's row has no one awaiting it: its failure is kept in `failed`.
    saved.catch(() => undefined);
    this.batch = { saved, resolve, reject };
    setImmediate(() => this.flush());
    return this.batch;
  }

  /** The experiment's chunks, ordered by their first case (then as written), and a reader of one chunk. */
  private chunks(experimentId: string) {
    const list = this.statement(
      'SELECT chunk, first_case AS firstCase FROM eval_trial_chunks WHERE experiment_id = ? ORDER BY first_case, chunk',
    );
    const read = this.statement('SELECT trials FROM eval_trial_chunks WHERE chunk = ?');
    return {
      list: () => list.all(experimentId) as ChunkEntry[],
      load: (chunk: number) => (read.get(chunk) as { trials: string }).trials,
    };
  }

  async finishedTrials(experimentId: string): Promise<Set<string>> {
    this.flush();
    const rows = this.statement('SELECT case_index AS c, trial AS t FROM eval_trials WHERE experiment_id = ?').all(
      experimentId,
    ) as { c: number; t: number }[];
    const keys = new Set(rows.map(({ c, t }) => trialKey(c, t)));
    const { list, load } = this.chunks(experimentId);
    for (const { chunk } of list())
      for (const t of trialsFromChunk(load(chunk))) keys.add(trialKey(t.caseIndex, t.trial));
    return keys;
  }

  trials(experimentId: string): AsyncIterable<TrialRecord> {
    this.flush();
    const page = this.statement(
      'SELECT case_index, trial, record FROM eval_trials WHERE experiment_id = ? AND (case_index > ? OR (case_index = ? AND trial > ?)) ORDER BY case_index, trial LIMIT ?',
    );
    const { list, load } = this.chunks(experimentId);
    return mergeTrials(
      pagedTrials(
        ([caseIndex, trial], limit) => page.all(experimentId, caseIndex, caseIndex, trial, limit) as TrialRow[],
      ),
      orderedChunkTrials(list, load),
    );
  }

  /** Marks the experiment done with its summary, in the same transaction as the trials still to commit. */
  async finishExperiment(experimentId: string, summary: ExperimentSummary): Promise<void> {
    const finish = this.statement("UPDATE eval_experiments SET status = 'done', summary = ? WHERE id = ?");
    const json = JSON.stringify(summary);
    this.flush(() => finish.run(json, experimentId));
  }

  async listExperiments(limit = 50): Promise<ExperimentMeta[]> {
    this.flush();
    const rows = this.statement('SELECT meta, status FROM eval_experiments ORDER BY started_at DESC LIMIT ?').all(
      limit,
    ) as ExperimentRow[];
    return rows.map(metaFromRow);
  }

  async close(): Promise<void> {
    this.flush();
    this.db.close();
  }
}
