import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/index.js';
import { memoryCacheStore } from '../../../src/cache/index.js';
import {
  compareExperiments,
  contains,
  loadExperiment,
  PostgresExperimentStore,
  runExperiment,
  SqliteExperimentStore,
} from '../../../src/eval/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { TEST_PG, uniqueName } from '../../server/pg-fixtures.js';

const schema = uniqueName('experiments');
const dirs: string[] = [];
afterAll(async () => {
  const pool = new pg.Pool({ connectionString: TEST_PG });
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const data = ['a', 'b', 'c'].map((id) => ({ id, input: id, expected: 'yes' }));
const task = (wrong: string[]) => async (input: unknown) => (wrong.includes(String(input)) ? 'no' : 'yes');

describe('experiment stores', () => {
  it('keeps experiments in PostgreSQL: trials, summary, listing, resume and compare read them back', async () => {
    const store = new PostgresExperimentStore({ connectionString: TEST_PG, schema });
    try {
      const a = await runExperiment({ name: 'base', data, task: task([]), scorers: [contains()], store, trials: 2 });
      const b = await runExperiment({ name: 'change', data, task: task(['c']), scorers: [contains()], store });
      const loaded = await loadExperiment(store, a.meta.id);
      expect(loaded.summary).toMatchObject({ cases: 3, trials: 6, passed: 6 });
      expect((await store.listExperiments()).map((m) => m.id)).toEqual(expect.arrayContaining([a.meta.id, b.meta.id]));
      expect(await store.finishedTrials(a.meta.id)).toEqual(new Set(['0:0', '0:1', '1:0', '1:1', '2:0', '2:1']));
      const comparison = await compareExperiments(
        { meta: a.meta, trials: store.trials(a.meta.id) },
        { meta: b.meta, trials: store.trials(b.meta.id) },
        { maxBroken: 0 },
      );
      expect(comparison.broken).toEqual(['c']);
      expect(comparison.verdict).toBe('regression');
      // A resume runs nothing already stored.
      let calls = 0;
      const resumed = await runExperiment({
        name: 'base',
        data,
        trials: 2,
        task: async () => {
          calls++;
          return 'yes';
        },
        scorers: [contains()],
        store,
        resume: a.meta.id,
      });
      expect(calls).toBe(0);
      expect(resumed.summary.trials).toBe(6);
    } finally {
      await store.close();
    }
  });

  it('opens a store from a postgres:// URL or a file path given as `store`', async () => {
    // A URL opens the default schema (`thinkflow`); the rows made here are removed after.
    const viaUrl = await runExperiment({ name: 'url', data, task: task([]), scorers: [contains()], store: TEST_PG });
    const pgStore = new PostgresExperimentStore({ connectionString: TEST_PG });
    const pool = new pg.Pool({ connectionString: TEST_PG });
    try {
      expect((await loadExperiment(pgStore, viaUrl.meta.id)).summary?.passed).toBe(3);
      // The experiment returned reads its trials through a store opened again from the URL.
      const read: string[] = [];
      for await (const t of viaUrl.trials) read.push(`${t.caseId}:${t.output}`);
      expect(read).toEqual(['a:yes', 'b:yes', 'c:yes']);
    } finally {
      await pool.query('DELETE FROM thinkflow.eval_trial_chunks WHERE experiment_id = $1', [viaUrl.meta.id]);
      await pool.query('DELETE FROM thinkflow.eval_experiments WHERE id = $1', [viaUrl.meta.id]);
      await pool.end();
      await pgStore.close();
    }
    const dir = mkdtempSync(join(tmpdir(), 'experiments-'));
    dirs.push(dir);
    const file = join(dir, 'experiments.db');
    const viaFile = await runExperiment({ name: 'file', data, task: task(['a']), scorers: [contains()], store: file });
    const sqlite = new SqliteExperimentStore({ file });
    expect((await loadExperiment(sqlite, viaFile.meta.id)).summary?.passed).toBe(2);
    await sqlite.close();
  });
});

describe('the SQLite store', () => {
  it("commits an experiment's row with its first trials or on the next turn of the event loop, and refuses an id taken", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'experiments-'));
    dirs.push(dir);
    const file = join(dir, 'thinkflow.db');
    const store = new SqliteExperimentStore({ file });
    const meta = {
      id: 'early',
      name: 'early',
      startedAt: '2026-12-06T00:00:00.000Z',
      status: 'running' as const,
      cases: 1,
      trials: 1,
      scorers: [],
    };
    await store.createExperiment(meta);
    // Read by the store itself at once, by another connection once a turn of the event loop has passed.
    expect((await store.getExperiment('early'))?.meta).toEqual(meta);
    await store.createExperiment({ ...meta, id: 'later' });
    await expect(store.createExperiment({ ...meta, id: 'later' })).rejects.toThrow('in this store already');
    await new Promise((resolve) => setImmediate(resolve));
    const other = new SqliteExperimentStore({ file });
    expect((await other.listExperiments()).map((m) => m.id).sort()).toEqual(['early', 'later']);
    await expect(other.createExperiment(meta)).rejects.toThrow('in this store already');
    await other.close();
    await store.close();
  });
});

describe('runExperiment cache', () => {
  it("answers an unchanged re-run from the cache: the agent's model is not called again", async () => {
    const model = scriptedModel((request) => `yes to ${request.messages.at(-1)?.content}`);
    const agent = new Agent({ model });
    const cache = memoryCacheStore();
    const first = await runExperiment({ name: 'c1', data, task: agent, scorers: [contains()], cache });
    expect(model.calls).toHaveLength(3);
    const again = await runExperiment({ name: 'c2', data, task: agent, scorers: [contains()], cache });
    expect(model.calls).toHaveLength(3);
    expect(again.summary.passed).toBe(first.summary.passed);
    expect(again.summary.llmCalls).toBe(3);
    // Without the cache, the same experiment calls the model for every case.
    await runExperiment({ name: 'c3', data, task: agent, scorers: [contains()] });
    expect(model.calls).toHaveLength(6);
  });

  it('hands a function task the cache in ctx.cache', async () => {
    const cache = memoryCacheStore();
    const seen: unknown[] = [];
    await runExperiment({
      name: 'fn',
      data,
      task: async (_input, ctx) => {
        seen.push(ctx.cache);
        return 'yes';
      },
      scorers: [contains()],
      cache,
    });
    expect(seen).toEqual([cache, cache, cache]);
  });
});
