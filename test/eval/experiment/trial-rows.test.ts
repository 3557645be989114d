import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ExperimentStore,
  PostgresExperimentStore,
  SqliteExperimentStore,
  type TrialRecord,
} from '../../../src/eval/index.js';
import { TEST_PG, uniqueName } from '../../server/pg-fixtures.js';

const meta = {
  id: 'rows',
  name: 'rows',
  startedAt: '2026-12-06T00:00:00.000Z',
  status: 'running' as const,
  cases: 3,
  trials: 2,
  scorers: ['exact', 'judge'],
};

/** Records with every optional field set and unset, a default and a given case id, and a structured input. */
const records: TrialRecord[] = [
  {
    caseId: '1',
    caseIndex: 0,
    trial: 0,
    input: 'q0',
    expected: 'a',
    output: 'a',
    status: 'done',
    pass: true,
    scores: [
      { name: 'exact', score: 1, pass: true },
      { name: 'judge', score: 0.8, pass: true, reason: 'fine', costUsd: 0.001, tokens: 12, metadata: { k: 1 } },
    ],
    steps: 2,
    llmCalls: 2,
    promptTokens: 120,
    completionTokens: 20,
    costUsd: 0.0004,
    scorerCostUsd: 0.001,
    latencyMs: 31.5,
    runId: 'run_1',
  },
  {
    caseId: 'billing-7',
    caseIndex: 1,
    trial: 1,
    input: { question: 'refund?', user: { id: 7 } },
    expected: null,
    output: '',
    status: 'error',
    error: 'the model timed out',
    pass: false,
    scores: [{ name: 'exact', score: 0, pass: false, error: 'the task failed: the model timed out' }],
    steps: 0,
    llmCalls: 0,
    promptTokens: 0,
    completionTokens: 0,
    latencyMs: 0.25,
  },
  {
    caseId: '3',
    caseIndex: 2,
    trial: 0,
    input: 'q2',
    output: 'b',
    status: 'failed',
    pass: false,
    scores: [{ name: 'exact', score: 0, pass: false }],
    steps: 5,
    llmCalls: 5,
    promptTokens: 1,
    completionTokens: 1,
    latencyMs: 3,
  },
];

async function readAll(store: ExperimentStore, id = 'rows'): Promise<TrialRecord[]> {
  const read: TrialRecord[] = [];
  for await (const t of store.trials(id)) read.push(t);
  return read;
}

const schema = uniqueName('trial_rows');
afterAll(async () => {
  const pool = new pg.Pool({ connectionString: TEST_PG });
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

const stores: [string, () => ExperimentStore][] = [
  ['SQLite', () => new SqliteExperimentStore({ file: ':memory:' })],
  ['PostgreSQL', () => new PostgresExperimentStore({ connectionString: TEST_PG, schema })],
];

describe.each(stores)('trial rows in the %s store', (_name, open) => {
  it('reads back every field of a trial as saved', async () => {
    const store = open();
    const id = uniqueName('rows');
    await store.createExperiment({ ...meta, id });
    await Promise.all(records.map((r) => store.saveTrial(id, r)));
    expect(await readAll(store, id)).toStrictEqual(records);
    expect(await store.finishedTrials(id)).toEqual(new Set(['0:0', '1:1', '2:0']));
    await store.close?.();
  });

  it('reads trials in case order across chunks written out of order, and a trial saved again as its latest', async () => {
    const store = open();
    const id = uniqueName('order');
    await store.createExperiment({ ...meta, id, cases: 6 });
    const trial = (caseIndex: number, output: string): TrialRecord => ({
      ...records[2],
      caseId: String(caseIndex + 1),
      caseIndex,
      output,
    });
    // Three commits: cases 4 and 1, then 5, 0 and 1 again, then 3 and 2 (as concurrent trials finish).
    await Promise.all([store.saveTrial(id, trial(4, 'a')), store.saveTrial(id, trial(1, 'old'))]);
    await Promise.all([store.saveTrial(id, trial(5, 'b')), store.saveTrial(id, trial(0, 'c'))]);
    await store.saveTrial(id, trial(1, 'new'));
    await Promise.all([store.saveTrial(id, trial(3, 'd')), store.saveTrial(id, trial(2, 'e'))]);
    const read = await readAll(store, id);
    expect(read.map((t) => [t.caseIndex, t.output])).toEqual([
      [0, 'c'],
      [1, 'new'],
      [2, 'e'],
      [3, 'd'],
      [4, 'a'],
      [5, 'b'],
    ]);
    expect((await store.finishedTrials(id)).size).toBe(6);
    await store.close?.();
  });

  it('keeps the trials of experiments saved in the same commit apart', async () => {
    const store = open();
    const [a, b] = [uniqueName('a'), uniqueName('b')];
    await store.createExperiment({ ...meta, id: a });
    await store.createExperiment({ ...meta, id: b });
    await Promise.all([
      store.saveTrial(a, records[0]),
      store.saveTrial(b, records[1]),
      store.saveTrial(a, records[2]),
      store.saveTrial(b, records[0]),
    ]);
    expect(await readAll(store, a)).toStrictEqual([records[0], records[2]]);
    expect(await readAll(store, b)).toStrictEqual([records[0], records[1]]);
    await store.close?.();
  });
});

/** A trial as the SQL stores wrote it one a row, in the compact keyed form, before the chunk rows. */
function trialJson(t: TrialRecord): string {
  return JSON.stringify({
    i: t.caseId === String(t.caseIndex + 1) ? undefined : t.caseId,
    in: t.input,
    x: t.expected,
    o: t.output,
    s: t.status,
    e: t.error,
    p: t.pass ? 1 : 0,
    sc: t.scores,
    n: t.steps,
    l: t.llmCalls,
    pt: t.promptTokens,
    ct: t.completionTokens,
    $: t.costUsd,
    s$: t.scorerCostUsd,
    ms: t.latencyMs,
    r: t.runId,
  });
}

describe('chunk rows', () => {
  it('read every run id back whole, also where a trial between has none', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'trial-rows-')), 'thinkflow.db');
    const store = new SqliteExperimentStore({ file });
    await store.createExperiment(meta);
    const start = '3f2a9c1e-77d4-4b1a-9e0f-';
    const ids = [`${start}000000000001`, `${start}00000000000a`, undefined, start];
    const saved = ids.map((runId, caseIndex): TrialRecord => {
      const { runId: _, ...rest } = records[0];
      const trial = { ...rest, caseIndex, caseId: String(caseIndex + 1) };
      return runId === undefined ? trial : { ...trial, runId };
    });
    await Promise.all(saved.map((t) => store.saveTrial('rows', t)));
    expect(await readAll(store)).toStrictEqual(saved);
    await store.close();
  });
});

describe('trial rows in SQLite files', () => {
  it('writes less than the records themselves, and reads rows stored one trial a row, as the record itself', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'trial-rows-')), 'thinkflow.db');
    const store = new SqliteExperimentStore({ file });
    await store.createExperiment(meta);
    await Promise.all(records.map((r) => store.saveTrial('rows', r)));
    await store.close();
    const db = new Database(file);
    const stored = db.prepare('SELECT trials FROM eval_trial_chunks').pluck().all() as string[];
    expect(stored).toHaveLength(1);
    expect(stored[0].length).toBeLessThan(JSON.stringify(records).length * 0.8);
    // Rows written before the chunks: the record's own JSON, one trial a row, and a newer chunk saving
    // one of them again; each trial is read once, from the chunk when it is in both.
    const insert = db.prepare(
      'INSERT OR REPLACE INTO eval_trials (experiment_id, case_index, trial, record) VALUES (?, ?, ?, ?)',
    );
    db.exec("DELETE FROM eval_trial_chunks WHERE experiment_id = 'rows'");
    for (const r of records) insert.run('rows', r.caseIndex, r.trial, JSON.stringify({ ...r, output: 'legacy' }));
    db.close();
    const reopened = new SqliteExperimentStore({ file });
    await reopened.saveTrial('rows', records[1]);
    expect(await readAll(reopened)).toStrictEqual([
      { ...records[0], output: 'legacy' },
      records[1],
      { ...records[2], output: 'legacy' },
    ]);
    expect(await reopened.finishedTrials('rows')).toEqual(new Set(['0:0', '1:1', '2:0']));
    await reopened.close();
  });

  it('reads rows stored one trial a row in the compact keyed form', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'trial-rows-')), 'thinkflow.db');
    new SqliteExperimentStore({ file }).close();
    const db = new Database(file);
    const insert = db.prepare(
      'INSERT OR REPLACE INTO eval_trials (experiment_id, case_index, trial, record) VALUES (?, ?, ?, ?)',
    );
    for (const r of records) insert.run('rows', r.caseIndex, r.trial, trialJson(r));
    db.close();
    const reopened = new SqliteExperimentStore({ file });
    expect(await readAll(reopened)).toStrictEqual(records);
    await reopened.close();
  });
});
