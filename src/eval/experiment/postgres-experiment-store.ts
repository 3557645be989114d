import type pg from 'pg';
import { openSchemaPool, withSchemaLock } from '../../memory/index.js';
import { type ExperimentRow, experimentFromRow, metaFromRow, pagedTrials, type TrialRow } from './experiment-rows.js';
import type { ExperimentMeta, ExperimentStore, ExperimentSummary, TrialRecord } from './experiment-types.js';
import { trialKey } from './experiment-types.js';
import { ChunkBuilder, type ChunkEntry, mergeTrials, orderedChunkTrials, trialsFromChunk } from './trial-chunks.js';

/** Trials written in one statement at most. */
const BATCH = 256;

/** Trials saved together: settled once they are written. */
interface Batch {
  saved: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Options of `PostgresExperimentStore`. */
export interface PostgresExperimentStoreOptions {
  /** `postgres://user@host:5432/db`. */
  connectionString: string;
  /** Schema holding the tables (created if missing). Default `thinkflow`. */
  schema?: string;
  /** Pool size. Default 4. */
  max?: number;
}

/**
 * Experiments in PostgreSQL, beside SQLite's: CI machines and a team share one history of experiments,
 * and `compare` reads any two. Trials are written as they finish, those saved in the same turn of the
 * event loop together as one row of `eval_trial_chunks` (the rows of SQLite's store), and `saveTrial`
 * resolves once its trial is committed, so a killed run resumes. Rows of one trial each (`eval_trials`,
 * written before the chunks) are still read.
 *
 * @example
 * const store = new PostgresExperimentStore({ connectionString: 'postgres://127.0.0.1:5432/evals' });
 * await runExperiment({ name: 'support', data, task, scorers, store });
 */
export class PostgresExperimentStore implements ExperimentStore {
  readonly #pool: pg.Pool;
  readonly #s: string;
  #ready: Promise<unknown> | undefined;
  /** Trials saved and not yet written, by experiment, and their write: one promise for the batch. */
  #pending = new Map<string, ChunkBuilder>();
  #unsaved = 0;
  #batch: Batch | undefined;
  /** The last batch's write: batches are written one after another. */
  #writing: Promise<unknown> = Promise.resolve();

  constructor(options: PostgresExperimentStoreOptions) {
    const { pool, schema } = openSchemaPool({ ...options, max: options.max ?? 4 });
    this.#s = schema;
    this.#pool = pool;
  }

  /** The tables, made once (under the schema lock, as the other stores make theirs) before the first query. */
  #query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    const s = this.#s;
    this.#ready ??= withSchemaLock({ pool: this.#pool, schema: s }, (client) =>
      client.query(`CREATE SCHEMA IF NOT EXISTS ${s};
        CREATE TABLE IF NOT EXISTS ${s}.eval_experiments (
          id TEXT PRIMARY KEY, name TEXT NOT NULL, started_at TEXT NOT NULL, status TEXT NOT NULL, meta TEXT NOT NULL, summary TEXT
        );
        CREATE TABLE IF NOT EXISTS ${s}.eval_trials (
          experiment_id TEXT NOT NULL, case_index INTEGER NOT NULL, trial INTEGER NOT NULL, record TEXT NOT NULL,
          PRIMARY KEY (experiment_id, case_index, trial)
        );
        CREATE TABLE IF NOT EXISTS ${s}.eval_trial_chunks (
          chunk BIGSERIAL PRIMARY KEY, experiment_id TEXT NOT NULL, first_case INTEGER NOT NULL, trials TEXT NOT NULL
        );
        CREATE INDEX IF NOT EXISTS eval_trial_chunks_experiment ON ${s}.eval_trial_chunks (experiment_id, first_case);`),
    );
    return this.#ready.then(() => this.#pool.query<R>(text.replaceAll('{s}', s), values));
  }

  async createExperiment(meta: ExperimentMeta): Promise<void> {
    await this.#query(
      'INSERT INTO {s}.eval_experiments (id, name, started_at, status, meta) VALUES ($1, $2, $3, $4, $5)',
      [meta.id, meta.name, meta.startedAt, meta.status, JSON.stringify(meta)],
    );
  }

  async getExperiment(id: string): ReturnType<ExperimentStore['getExperiment']> {
    const { rows } = await this.#query<ExperimentRow>(
      'SELECT meta, status, summary FROM {s}.eval_experiments WHERE id = $1',
      [id],
    );
    return rows[0] && experimentFromRow(rows[0]);
  }

  saveTrial(experimentId: string, trial: TrialRecord): Promise<void> {
    const batch = this.#batch ?? this.#openBatch();
    const chunk = this.#pending.get(experimentId);
    if (chunk) chunk.add(trial);
    else this.#pending.set(experimentId, new ChunkBuilder(trial));
    if (++this.#unsaved >= BATCH) this.#flush();
    return batch.saved;
  }

  /** A new batch, written on the next turn of the event loop (or sooner, when full or read). */
  #openBatch(): Batch {
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const saved = new Promise<void>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    this.#batch = { saved, resolve, reject };
    setImmediate(() => this.#flush());
    return this.#batch;
  }

  /** Writes the pending trials, one chunk row per experiment in one statement, after the batch before. */
  #flush(): Promise<unknown> {
    const batch = this.#batch;
    if (!batch) return this.#writing;
    const pending = this.#pending;
    this.#batch = undefined;
    this.#pending = new Map();
    this.#unsaved = 0;
    const values: unknown[] = [];
    for (const [experimentId, chunk] of pending) values.push(experimentId, chunk.firstCase, chunk.json());
    const rows = Array.from({ length: values.length / 3 }, (_, i) => `($${3 * i + 1}, $${3 * i + 2}, $${3 * i + 3})`);
    this.#writing = this.#writing
      .then(() =>
        this.#query(`INSERT INTO {s}.eval_trial_chunks (experiment_id, first_case, trials) VALUES ${rows}`, values),
      )
      .then(batch.resolve, batch.reject);
    return this.#writing;
  }

  #chunks(experimentId: string) {
    return {
      list: async () => {
        const { rows } = await this.#query<{ chunk: string; first_case: number }>(
          'SELECT chunk, first_case FROM {s}.eval_trial_chunks WHERE experiment_id = $1 ORDER BY first_case, chunk',
          [experimentId],
        );
        return rows.map((r): ChunkEntry => ({ chunk: Number(r.chunk), firstCase: r.first_case }));
      },
      load: async (chunk: number) => {
        const { rows } = await this.#query<{ trials: string }>(
          'SELECT trials FROM {s}.eval_trial_chunks WHERE chunk = $1',
          [chunk],
        );
        return rows[0].trials;
      },
    };
  }

  async finishedTrials(experimentId: string): Promise<Set<string>> {
    await this.#flush();
    const { rows } = await this.#query<{ c: number; t: number }>(
      'SELECT case_index AS c, trial AS t FROM {s}.eval_trials WHERE experiment_id = $1',
      [experimentId],
    );
    const keys = new Set(rows.map(({ c, t }) => trialKey(c, t)));
    const { list, load } = this.#chunks(experimentId);
    for (const { chunk } of await list()) {
      for (const t of trialsFromChunk(await load(chunk))) keys.add(trialKey(t.caseIndex, t.trial));
    }
    return keys;
  }

  trials(experimentId: string): AsyncIterable<TrialRecord> {
    const written = this.#flush();
    const { list, load } = this.#chunks(experimentId);
    return mergeTrials(
      pagedTrials(async ([caseIndex, trial], limit) => {
        await written;
        const { rows } = await this.#query<TrialRow>(
          `SELECT case_index, trial, record FROM {s}.eval_trials WHERE experiment_id = $1
         AND (case_index, trial) > ($2, $3) ORDER BY case_index, trial LIMIT $4`,
          [experimentId, caseIndex, trial, limit],
        );
        return rows;
      }),
      orderedChunkTrials(async () => {
        await written;
        return list();
      }, load),
    );
  }

  async finishExperiment(experimentId: string, summary: ExperimentSummary): Promise<void> {
    await this.#flush();
    await this.#query("UPDATE {s}.eval_experiments SET status = 'done', summary = $1 WHERE id = $2", [
      JSON.stringify(summary),
      experimentId,
    ]);
  }

  async listExperiments(limit = 50): Promise<ExperimentMeta[]> {
    const { rows } = await this.#query<ExperimentRow>(
      'SELECT meta, status FROM {s}.eval_experiments ORDER BY started_at DESC LIMIT $1',
      [limit],
    );
    return rows.map(metaFromRow);
  }

  async close(): Promise<void> {
    await this.#flush().catch(() => undefined);
    await this.#pool.end();
  }
}
