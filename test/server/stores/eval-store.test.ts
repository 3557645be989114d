import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type EvalStore, PostgresEvalStore, SqliteEvalStore } from '../../../src/server/index.js';
import { TEST_PG, uniqueName } from '../pg-fixtures.js';

const schema = uniqueName('evals');
afterAll(async () => {
  const pool = new pg.Pool({ connectionString: TEST_PG });
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

/** The same checks on every eval store (hono's common-case pattern). */
describe.each([
  ['SQLite', () => new SqliteEvalStore({ path: ':memory:' })],
  ['PostgreSQL', () => new PostgresEvalStore({ connectionString: TEST_PG, schema })],
])('%s eval store', (_name, open: () => EvalStore) => {
  it('versions a dataset: rows keep their ids, each change is a version, old versions read as they were', async () => {
    const store = open();
    await store.init();
    try {
      const made = await store.createDataset({
        name: 'support',
        owner: 'alice',
        rows: [{ input: 'a', expected: 'A' }, { input: 'b' }],
      });
      expect(made).toMatchObject({ name: 'support', owner: 'alice', version: 1, rows: 2 });
      const [a, b] = made.added;
      const changed = await store.changeDataset(made.id, {
        add: [{ input: 'c', metadata: { runId: 'r1' } }],
        update: [{ id: a, input: 'a2', expected: 'A2' }],
        remove: [b],
      });
      if (!changed.ok) throw new Error(changed.reason);
      expect(changed.dataset).toMatchObject({ version: 2, rows: 2 });
      const v2 = await store.readDataset(made.id);
      expect(v2?.rowsVersion).toBe(2);
      expect(v2?.items).toEqual([
        { id: a, version: 2, input: 'a2', expected: 'A2' },
        { id: changed.added[0], version: 2, input: 'c', metadata: { runId: 'r1' } },
      ]);
      const v1 = await store.readDataset(made.id, 1);
      expect(v1?.items).toEqual([
        { id: a, version: 1, input: 'a', expected: 'A' },
        { id: b, version: 1, input: 'b' },
      ]);
      expect(await store.readDataset(made.id, 3)).toBeUndefined();
      expect(await store.changeDataset(made.id, { remove: [b] })).toEqual({
        ok: false,
        reason: 'unknown_row',
        rowId: b,
      });
      expect(await store.changeDataset('nope', { add: [{ input: 'x' }] })).toEqual({
        ok: false,
        reason: 'unknown_dataset',
      });
      // The refused change made no version.
      expect((await store.getDataset(made.id))?.version).toBe(2);
      const other = await store.createDataset({ name: 'other', owner: 'bob', rows: [] });
      expect((await store.listDatasets({ owner: 'alice' })).map((d) => d.id)).toEqual([made.id]);
      expect((await store.listDatasets({})).map((d) => d.id).sort()).toEqual([made.id, other.id].sort());
    } finally {
      await store.close();
    }
  });

  it('keeps one score per run and scorer, a later verdict replacing the earlier', async () => {
    const store = open();
    await store.init();
    try {
      const score = { runId: 'run-1', name: 'contains', score: 0, pass: false, ms: 1, scoredAt: 1 };
      await store.addScores([score, { ...score, name: 'judge', error: 'unreadable reply' }]);
      await store.addScores([{ ...score, score: 1, pass: true, scoredAt: 2 }]);
      expect(await store.readScores('run-1')).toEqual([
        { ...score, score: 1, pass: true, scoredAt: 2 },
        { ...score, name: 'judge', error: 'unreadable reply' },
      ]);
      expect(await store.readScores('run-2')).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
