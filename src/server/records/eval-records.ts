import { z } from 'zod';

/**
 * One scorer's verdict on a stored run, as online scoring keeps it (`GET /v1/runs/:id/scores`). `error`
 * is set when the scorer itself failed or timed out (score 0, not passed); the run is not at fault.
 */
export const RunScore = z.object({
  runId: z.string(),
  name: z.string(),
  score: z.number(),
  pass: z.boolean(),
  reason: z.string().optional(),
  error: z.string().optional(),
  /** What scoring itself cost (an LLM judge), apart from the run's cost. */
  costUsd: z.number().optional(),
  tokens: z.number().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  /** Milliseconds the scorer took. */
  ms: z.number(),
  scoredAt: z.number(),
});
export type RunScore = z.infer<typeof RunScore>;

/** What a dataset row holds: the case's input, what it should answer, and anything else worth keeping. */
export const DatasetRowData = z.strictObject({
  input: z.unknown().refine((value) => value !== undefined, 'input is required'),
  expected: z.unknown().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type DatasetRowData = z.infer<typeof DatasetRowData>;

/** One row of one version of a dataset. A row keeps its id across the versions that edit it. */
export interface DatasetRow extends DatasetRowData {
  id: string;
  /** The version that wrote this row as it reads now. */
  version: number;
}

/** A dataset as listed: its name and the version it stands at (each change of its rows makes one). */
export interface DatasetInfo {
  id: string;
  name: string;
  description?: string;
  /** The principal who made it; only they (and admins) see it. Absent on an open server. */
  owner?: string;
  /** The latest version (1 once made, even empty). */
  version: number;
  /** Rows in the latest version. */
  rows: number;
  createdAt: number;
  updatedAt: number;
}

/** One version of a dataset with its rows. */
export interface DatasetVersion extends DatasetInfo {
  /** The version these rows belong to (the latest unless an older one was asked for). */
  rowsVersion: number;
  items: DatasetRow[];
}

/** One change of a dataset's rows: rows added, rows edited (by id, replaced whole) and rows removed. */
export const DatasetChange = z.strictObject({
  add: z.array(DatasetRowData).max(10_000).optional(),
  update: z
    .array(DatasetRowData.extend({ id: z.string().min(1) }))
    .max(10_000)
    .optional(),
  remove: z.array(z.string().min(1)).max(10_000).optional(),
});
export type DatasetChange = z.infer<typeof DatasetChange>;

/** Why a change was refused: no such dataset, or a row id the latest version does not hold. */
export type ChangeResult =
  | { ok: true; dataset: DatasetInfo; added: string[] }
  | { ok: false; reason: 'unknown_dataset' }
  | { ok: false; reason: 'unknown_row'; rowId: string };

/**
 * Where the server keeps the scores of its runs and its datasets: beside the runs, in the same SQLite
 * file or PostgreSQL schema (`SqliteEvalStore`, `PostgresEvalStore`).
 */
export interface EvalStore {
  /** Creates the tables if needed. Idempotent. */
  init(): Promise<void>;
  /** Keeps scores of a run (a scorer scoring the run again replaces its score). */
  addScores(scores: readonly RunScore[]): Promise<void>;
  readScores(runId: string): Promise<RunScore[]>;
  createDataset(dataset: {
    name: string;
    description?: string;
    owner?: string;
    rows: DatasetRowData[];
  }): Promise<DatasetInfo & { added: string[] }>;
  /** Datasets newest first; with `owner`, only theirs. */
  listDatasets(filter: { owner?: string; limit?: number }): Promise<DatasetInfo[]>;
  getDataset(id: string): Promise<DatasetInfo | undefined>;
  /** The rows of `version` (default the latest); undefined for an unknown dataset or version. */
  readDataset(id: string, version?: number): Promise<DatasetVersion | undefined>;
  /** Applies one change as one new version, atomically. */
  changeDataset(id: string, change: DatasetChange): Promise<ChangeResult>;
  close(): Promise<void>;
}
