import type pg from 'pg';
import { openSchemaPool, withSchemaLock } from '../../memory/index.js';
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
 * and `compare` reads any two. Each trial is one row written as it finishes, so a killed run resumes.
 *
 * @example
 * const store = new PostgresExperimentStore({ connectionString: 'postgres://127.0.0.1:5432/evals' });
 * await runExperiment({ name: 'support', data, task, scorers, store });
 */
export class PostgresExperimentStore implements ExperimentStore {
  readonly #pool: pg.Pool;
  readonly #s: string;
  #ready: Promise<unknown> | undefined;

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
        );`),
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

  async saveTrial(experimentId: string, trial: TrialRecord): Promise<void> {
    await this.#query(
      `INSERT INTO {s}.eval_trials (experiment_id, case_index, trial, record) VALUES ($1, $2, $3, $4)
       ON CONFLICT (experiment_id, case_index, trial) DO UPDATE SET record = excluded.record`,
      [experimentId, trial.caseIndex, trial.trial, trialJson(trial)],
    );
  }

  async finishedTrials(experimentId: string): Promise<Set<string>> {
    const { rows } = await this.#query<{ c: number; t: number }>(
      'SELECT case_index AS c, trial AS t FROM {s}.eval_trials WHERE experiment_id = $1',
      [experimentId],
    );
    return new Set(rows.map(({ c, t }) => trialKey(c, t)));
  }

  trials(experimentId: string): AsyncIterable<TrialRecord> {
    return pagedTrials(async ([caseIndex, trial], limit) => {
      const { rows } = await this.#query<TrialRow>(
        `SELECT case_index, trial, record FROM {s}.eval_trials WHERE experiment_id = $1
         AND (case_index, trial) > ($2, $3) ORDER BY case_index, trial LIMIT $4`,
        [experimentId, caseIndex, trial, limit],
      );
      return rows;
    });
  }

  async finishExperiment(experimentId: string, summary: ExperimentSummary): Promise<void> {
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
    await this.#pool.end();
  }
}
