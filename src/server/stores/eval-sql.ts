import {
  type ChangeResult,
  type DatasetChange,
  type DatasetInfo,
  type DatasetRow,
  type DatasetRowData,
  type EvalStore,
  newRunId,
  RunScore,
} from '../records/index.js';

/**
 * The few calls the eval store makes of its database, with `?` placeholders: SQLite and PostgreSQL
 * each answer them (`sqliteEvalSql`, `postgresEvalSql`), so scores and dataset versions are written
 * by one piece of code in both.
 */
export interface EvalSql {
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  run(sql: string, params?: readonly unknown[]): Promise<void>;
  /** Runs `work` in one transaction; transactions of one store take turns. */
  transaction<T>(work: (sql: EvalSql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The tables, with `{p}` standing for the schema prefix (`thinkflow.` in PostgreSQL, nothing in SQLite). */
export const EVAL_DDL = `
CREATE TABLE IF NOT EXISTS {p}run_scores (
  run_id TEXT NOT NULL, name TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (run_id, name)
);
CREATE TABLE IF NOT EXISTS {p}datasets (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT, owner TEXT, version INTEGER NOT NULL,
  row_count INTEGER NOT NULL, next_ord INTEGER NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS datasets_owner ON {p}datasets (owner, updated_at);
-- A row as one version wrote it, read by every version from from_version up to (not including) to_version.
CREATE TABLE IF NOT EXISTS {p}dataset_rows (
  dataset_id TEXT NOT NULL, row_id TEXT NOT NULL, ord INTEGER NOT NULL, from_version INTEGER NOT NULL,
  to_version INTEGER, data TEXT NOT NULL, PRIMARY KEY (dataset_id, row_id, from_version)
);
CREATE INDEX IF NOT EXISTS dataset_rows_ord ON {p}dataset_rows (dataset_id, ord);
`;

interface DatasetDbRow {
  id: string;
  name: string;
  description: string | null;
  owner: string | null;
  version: number | string;
  row_count: number | string;
  next_ord: number | string;
  created_at: number | string;
  updated_at: number | string;
}

function datasetInfo(row: DatasetDbRow): DatasetInfo {
  const info: DatasetInfo = {
    id: row.id,
    name: row.name,
    version: Number(row.version),
    rows: Number(row.row_count),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
  if (row.description !== null) info.description = row.description;
  if (row.owner !== null) info.owner = row.owner;
  return info;
}

function rowData({ input, expected, metadata }: DatasetRowData): string {
  return JSON.stringify({ input, expected, metadata });
}

/**
 * An `EvalStore` made of `sqlEvalStore`'s logic: the SQLite and PostgreSQL stores differ only in how they
 * connect and make their tables (`init`), so they extend this and pass their statements in.
 */
export class SqlBackedEvalStore implements EvalStore {
  readonly #store: Omit<EvalStore, 'init'>;

  constructor(store: Omit<EvalStore, 'init'>) {
    this.#store = store;
  }

  async init(): Promise<void> {}
  addScores: EvalStore['addScores'] = (scores) => this.#store.addScores(scores);
  readScores: EvalStore['readScores'] = (runId) => this.#store.readScores(runId);
  createDataset: EvalStore['createDataset'] = (dataset) => this.#store.createDataset(dataset);
  listDatasets: EvalStore['listDatasets'] = (filter) => this.#store.listDatasets(filter);
  getDataset: EvalStore['getDataset'] = (id) => this.#store.getDataset(id);
  readDataset: EvalStore['readDataset'] = (id, version) => this.#store.readDataset(id, version);
  changeDataset: EvalStore['changeDataset'] = (id, change) => this.#store.changeDataset(id, change);
  close: EvalStore['close'] = () => this.#store.close();
}

/** The eval store's logic over `sql`, whose tables carry the prefix `p`. */
export function sqlEvalStore(sql: EvalSql, p: string): Omit<EvalStore, 'init'> {
  const t = (text: string) => text.replaceAll('{p}', p);
  return { ...scoreStatements(sql, t), ...datasetStatements(sql, t), close: () => sql.close() };
}

/** Scores of runs: one row per run and scorer, a later verdict replacing an earlier one. */
function scoreStatements(sql: EvalSql, t: (text: string) => string): Pick<EvalStore, 'addScores' | 'readScores'> {
  return {
    // One transaction per run's scores: one commit, not one per scorer, on the file the runs are written to.
    addScores: (scores) =>
      sql.transaction(async (db) => {
        for (const score of scores) {
          await db.run(
            t(
              'INSERT INTO {p}run_scores (run_id, name, record) VALUES (?, ?, ?) ON CONFLICT (run_id, name) DO UPDATE SET record = excluded.record',
            ),
            [score.runId, score.name, JSON.stringify(score)],
          );
        }
      }),
    async readScores(runId) {
      const rows = await sql.all<{ record: string }>(
        t('SELECT record FROM {p}run_scores WHERE run_id = ? ORDER BY name'),
        [runId],
      );
      return rows.map((row) => RunScore.parse(JSON.parse(row.record)));
    },
  };
}

/** Datasets and their versioned rows. */
function datasetStatements(
  sql: EvalSql,
  t: (text: string) => string,
): Omit<EvalStore, 'init' | 'close' | 'addScores' | 'readScores'> {
  const getDataset = async (db: EvalSql, id: string) =>
    (await db.all<DatasetDbRow>(t('SELECT * FROM {p}datasets WHERE id = ?'), [id]))[0];

  /** Rows added by version `version` (ids made here), numbered from `ord`. */
  const insertRows = async (db: EvalSql, at: { id: string; version: number; ord: number }, rows: DatasetRowData[]) => {
    const ids: string[] = [];
    for (const [index, row] of rows.entries()) {
      const rowId = newRunId();
      ids.push(rowId);
      await db.run(
        t(
          'INSERT INTO {p}dataset_rows (dataset_id, row_id, ord, from_version, to_version, data) VALUES (?, ?, ?, ?, NULL, ?)',
        ),
        [at.id, rowId, at.ord + index, at.version, rowData(row)],
      );
    }
    return ids;
  };

  return {
    createDataset({ name, description, owner, rows }) {
      return sql.transaction(async (db) => {
        const id = newRunId();
        const now = Date.now();
        await db.run(
          t(
            'INSERT INTO {p}datasets (id, name, description, owner, version, row_count, next_ord, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?)',
          ),
          [id, name, description ?? null, owner ?? null, rows.length, rows.length, now, now],
        );
        const added = await insertRows(db, { id, version: 1, ord: 0 }, rows);
        return { ...datasetInfo((await getDataset(db, id)) as DatasetDbRow), added };
      });
    },
    async listDatasets({ owner, limit = 100 }) {
      const rows =
        owner === undefined
          ? await sql.all<DatasetDbRow>(t('SELECT * FROM {p}datasets ORDER BY updated_at DESC, id DESC LIMIT ?'), [
              limit,
            ])
          : await sql.all<DatasetDbRow>(
              t('SELECT * FROM {p}datasets WHERE owner = ? ORDER BY updated_at DESC, id DESC LIMIT ?'),
              [owner, limit],
            );
      return rows.map(datasetInfo);
    },
    async getDataset(id) {
      const row = await getDataset(sql, id);
      return row && datasetInfo(row);
    },
    async readDataset(id, version) {
      const row = await getDataset(sql, id);
      if (!row) return undefined;
      const info = datasetInfo(row);
      const at = version ?? info.version;
      if (at < 1 || at > info.version) return undefined;
      const rows = await sql.all<{ row_id: string; from_version: number | string; data: string }>(
        t(
          'SELECT row_id, from_version, data FROM {p}dataset_rows WHERE dataset_id = ? AND from_version <= ? AND (to_version IS NULL OR to_version > ?) ORDER BY ord',
        ),
        [id, at, at],
      );
      const items = rows.map((r): DatasetRow => {
        const data = JSON.parse(r.data) as DatasetRowData;
        const item: DatasetRow = { id: r.row_id, version: Number(r.from_version), input: data.input };
        if (data.expected !== undefined) item.expected = data.expected;
        if (data.metadata !== undefined) item.metadata = data.metadata;
        return item;
      });
      return { ...info, rowsVersion: at, items };
    },
    changeDataset(id, change) {
      return sql.transaction((db) => applyChange(db, t, { id, change, getDataset, insertRows }));
    },
  };
}

interface ChangeContext {
  id: string;
  change: DatasetChange;
  getDataset: (db: EvalSql, id: string) => Promise<DatasetDbRow | undefined>;
  insertRows: (
    db: EvalSql,
    at: { id: string; version: number; ord: number },
    rows: DatasetRowData[],
  ) => Promise<string[]>;
}

/** One change as one new version: edited and removed rows end at it, edited and added rows start at it. */
async function applyChange(db: EvalSql, t: (text: string) => string, ctx: ChangeContext): Promise<ChangeResult> {
  const { id, change } = ctx;
  const row = await ctx.getDataset(db, id);
  if (!row) return { ok: false, reason: 'unknown_dataset' };
  const version = Number(row.version) + 1;
  const current = new Map(
    (
      await db.all<{ row_id: string; ord: number | string }>(
        t('SELECT row_id, ord FROM {p}dataset_rows WHERE dataset_id = ? AND to_version IS NULL'),
        [id],
      )
    ).map((r) => [r.row_id, Number(r.ord)]),
  );
  const touched = [...(change.update ?? []).map((u) => u.id), ...(change.remove ?? [])];
  const missing = touched.find((rowId) => !current.has(rowId));
  if (missing !== undefined) return { ok: false, reason: 'unknown_row', rowId: missing };
  const end = t('UPDATE {p}dataset_rows SET to_version = ? WHERE dataset_id = ? AND row_id = ? AND to_version IS NULL');
  const removed = new Set(change.remove ?? []);
  for (const { id: rowId, ...data } of change.update ?? []) {
    if (removed.has(rowId)) continue;
    await db.run(end, [version, id, rowId]);
    await db.run(
      t(
        'INSERT INTO {p}dataset_rows (dataset_id, row_id, ord, from_version, to_version, data) VALUES (?, ?, ?, ?, NULL, ?)',
      ),
      [id, rowId, current.get(rowId), version, rowData(data)],
    );
  }
  for (const rowId of removed) await db.run(end, [version, id, rowId]);
  const add = change.add ?? [];
  const added = await ctx.insertRows(db, { id, version, ord: Number(row.next_ord) }, add);
  await db.run(t('UPDATE {p}datasets SET version = ?, row_count = ?, next_ord = ?, updated_at = ? WHERE id = ?'), [
    version,
    current.size - removed.size + add.length,
    Number(row.next_ord) + add.length,
    Date.now(),
    id,
  ]);
  return { ok: true, dataset: datasetInfo((await ctx.getDataset(db, id)) as DatasetDbRow), added };
}
