import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SqliteExperimentStore, type TrialRecord } from '../../../src/eval/index.js';

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

async function readAll(store: SqliteExperimentStore): Promise<TrialRecord[]> {
  const read: TrialRecord[] = [];
  for await (const t of store.trials('rows')) read.push(t);
  return read;
}

describe('trial rows in the SQL stores', () => {
  it('reads back every field of a trial as saved', async () => {
    const store = new SqliteExperimentStore({ file: ':memory:' });
    await store.createExperiment(meta);
    await Promise.all(records.map((r) => store.saveTrial('rows', r)));
    expect(await readAll(store)).toStrictEqual(records);
    expect(await store.finishedTrials('rows')).toEqual(new Set(['0:0', '1:1', '2:0']));
    await store.close();
  });

  it('writes less than the record itself, and reads rows stored as the record itself', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'trial-rows-')), 'thinkflow.db');
    const store = new SqliteExperimentStore({ file });
    await store.createExperiment(meta);
    await store.saveTrial('rows', records[0]);
    await store.close();
    const db = new Database(file);
    const stored = db.prepare('SELECT record FROM eval_trials').pluck().get() as string;
    expect(stored.length).toBeLessThan(JSON.stringify(records[0]).length * 0.8);
    // Rows written before the compact format: the record's own JSON.
    const insert = db.prepare(
      'INSERT OR REPLACE INTO eval_trials (experiment_id, case_index, trial, record) VALUES (?, ?, ?, ?)',
    );
    for (const r of records) insert.run('rows', r.caseIndex, r.trial, JSON.stringify(r));
    db.close();
    const reopened = new SqliteExperimentStore({ file });
    expect(await readAll(reopened)).toStrictEqual(records);
    await reopened.close();
  });
});
