import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { newRunId } from '../../../src/core/index.js';
import { nextRunId, RunIdSequence } from '../../../src/eval/experiment/run-id-sequence.js';
import { ChunkBuilder, trialsFromChunk } from '../../../src/eval/experiment/trial-chunks.js';
import { SqliteExperimentStore, type TrialRecord } from '../../../src/eval/index.js';

const run = '3f2a9c1e-77d4-4b1a-9e0f-';

const base: TrialRecord = {
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
  runId: `${run}000000000001`,
};

/** Trials in the order a commit could hold them, each field changing, coming back, or set and unset in turn. */
const object = { question: 'refund?', user: { id: 7 } };
const sequence: TrialRecord[] = [
  base,
  { ...base, caseId: '2', caseIndex: 1, input: 'q1', runId: `${run}000000000002` },
  {
    caseId: 'billing-7',
    caseIndex: 0,
    trial: 1,
    input: 'q0',
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
    caseId: '6',
    caseIndex: 5,
    trial: 0,
    input: object,
    expected: null,
    output: 'b',
    status: 'failed',
    pass: false,
    scores: [
      { name: 'exact', score: 0, pass: false },
      { name: 'judge', score: 0.5, pass: false },
    ],
    steps: 5,
    llmCalls: 5,
    promptTokens: 1,
    completionTokens: 1,
    latencyMs: 3,
    runId: 'another-process-1',
  },
  {
    caseId: '6',
    caseIndex: 5,
    trial: 1,
    input: object,
    expected: null,
    output: 'b',
    status: 'failed',
    pass: false,
    scores: [
      { name: 'exact', score: 0, pass: false },
      { name: 'judge', score: 0.5, pass: false },
    ],
    steps: 5,
    llmCalls: 5,
    promptTokens: 1,
    completionTokens: 1,
    latencyMs: 3,
  },
  { ...base, caseId: '7', caseIndex: 6, input: 'q6', expected: undefined, costUsd: undefined, runId: undefined },
];

function roundTrip(trials: readonly TrialRecord[]): { json: string; read: TrialRecord[] } {
  const chunk = new ChunkBuilder(trials[0]);
  for (const t of trials.slice(1)) chunk.add(t);
  const json = chunk.json();
  return { json, read: trialsFromChunk(json) };
}

describe('a chunk row', () => {
  it('reads back every field of every trial, as each field changes, comes back, or is set and unset', () => {
    const { json, read } = roundTrip(sequence);
    const { expected: _, costUsd: __, runId: ___, ...last } = sequence[5];
    expect(read).toStrictEqual([...sequence.slice(0, 5), last]);
    expect(JSON.parse(json)).toMatchObject({ v: 3, n: 6, s: ['exact', 'judge'] });
    // Each trial its own scores, also where the row wrote them once for both.
    expect(read[4].scores[0]).not.toBe(read[3].scores[0]);
    expect(read[4].scores).toEqual(read[3].scores);
  });

  it('writes of each trial what changed since the one before', () => {
    const trials = Array.from({ length: 256 }, (__, i): TrialRecord => {
      const { scorerCostUsd: _, ...rest } = base;
      return {
        ...rest,
        caseId: String(i + 1),
        caseIndex: i,
        input: `q${i}`,
        scores: [{ name: 'exact', score: 1, pass: true }],
        runId: `${run}${(i + 1).toString(16).padStart(12, '0')}`,
      };
    });
    const { json, read } = roundTrip(trials);
    expect(read).toStrictEqual(trials);
    // A trial is its mask and input (its run id follows the one before): under 10 bytes, of 300 in the record's JSON.
    expect(json.length / 256).toBeLessThan(10);
    expect(JSON.stringify(trials).length / 256).toBeGreaterThan(300);
  });

  it('writes a case id only where it is not the 1-based position', () => {
    const ids = ['1', '02', '3 ', '', '+5', '60', '7', '8.0', '9', '10', '1e1', '12'];
    const trials = ids.map(
      (caseId, i): TrialRecord => ({ ...base, caseId, caseIndex: i, input: `q${i}`, runId: undefined }),
    );
    const { json, read } = roundTrip(trials);
    expect(read.map((t) => t.caseId)).toEqual(ids);
    const written = (JSON.parse(json) as { t: unknown[] }).t.filter(
      (v) => typeof v === 'string' && !/^(q\d+|a)$/.test(v),
    );
    expect(written).toEqual(['02', '3 ', '', '+5', '60', '8.0', '1e1']);
  });

  it('writes a run id only where it is not the one before with its counter plus one', () => {
    const ids = [
      `${run}000000000009`,
      `${run}00000000000a`, // follows
      `${run}00000000000c`, // skips one
      `${run}00000000000D`, // upper case: not a counter thinkflow writes
      'r-1',
      'r-1', // an id with no counter, again
      undefined,
      undefined,
      `${run}ffffffffffff`,
      `${run}ffffffffffff`, // the last counter, again: nothing follows it
      `x${run.slice(1)}00000000000e`, // another start
      `x${run.slice(1)}00000000000f`,
    ];
    const trials = ids.map((runId, i): TrialRecord => ({ ...base, caseId: String(i + 1), caseIndex: i, runId }));
    const { json, read } = roundTrip(trials);
    expect(read.map((t) => t.runId)).toEqual(ids);
    const written = (JSON.parse(json) as { t: unknown[] }).t.filter((v) => typeof v === 'string' && v.length > 2);
    expect(written).toEqual([
      `${run}000000000009`,
      `${run}00000000000c`,
      `${run}00000000000D`,
      'r-1',
      `${run}ffffffffffff`,
      `x${run.slice(1)}00000000000e`,
    ]);
  });

  it('tells a run id that follows the one before exactly as nextRunId reads it, across carries', () => {
    const hex = (n: number) => n.toString(16).padStart(12, '0');
    const ids: (string | undefined)[] = [];
    // Counters counting up through carries (0x0e, 0x0f, 0x10, 0xff, 0x100, 0xfff, 0x1000), with gaps,
    // repeats, a digit one too high at the end, another start, an id of another length, and unset ones.
    for (const n of [0xd, 0xe, 0xf, 0x10, 0x11, 0xfe, 0xff, 0x100, 0x101, 0xffe, 0xfff, 0x1000, 0x1000, 0x1002]) {
      ids.push(`${run}${hex(n)}`);
    }
    ids.push(`${run}${hex(0x1003)}`, `x${run.slice(1)}${hex(0x1004)}`, `x${run.slice(1)}${hex(0x1005)}`);
    ids.push(`${run}${hex(0x1006)}`, `${run}${hex(0x1007)}`, `${run}${hex(0x1009)}`, `${run}${hex(0x1008)}`);
    ids.push(`${run}0${hex(0x1009)}`, `${run}0${hex(0x100a)}`, undefined, `${run}${hex(0x100b)}`);
    ids.push(
      `${run}${hex(16 ** 12 - 2)}`,
      `${run}${hex(16 ** 12 - 1)}`,
      `${run}${hex(16 ** 12 - 1)}`,
      'r-1',
      'r-1',
      'r-2',
    );
    const sequence = new RunIdSequence();
    const told = ids.map((id) => sequence.follows(id));
    const expected = ids.map((id, i) => i > 0 && id === nextRunId(ids[i - 1]));
    expected[0] = false;
    expect(told).toEqual(expected);
    expect(told.filter(Boolean).length).toBeGreaterThan(15);
  });

  it("tells the agent's own run ids (newRunId, told by identity) as nextRunId reads them, also when runs interleave", () => {
    const sequence = new RunIdSequence();
    const ids: (string | undefined)[] = [];
    const told: boolean[] = [];
    // Each id told as it is issued, as an experiment's store tells its trials' run ids.
    const see = (id: string | undefined) => {
      ids.push(id);
      told.push(sequence.follows(id));
    };
    see(newRunId());
    see(newRunId()); // issued right after the one before
    const skipped = newRunId();
    see(newRunId()); // one issued between
    see(newRunId());
    see(skipped); // an older id after a newer one
    const c = ids[2] as string;
    see([...c].join('')); // equal to an id, not identical: follows `skipped`
    see(nextRunId(c));
    see(undefined);
    see(newRunId());
    see(newRunId());
    const other = newRunId();
    const last = newRunId();
    see(last);
    see(other); // issued in the other order
    const x = newRunId();
    newRunId();
    see(x);
    see(skipped); // right after x, which was issued second to last: not the last one issued
    see(newRunId());
    const expected = ids.map((id, i) => i > 0 && id === nextRunId(ids[i - 1]));
    expect(told).toEqual(expected);
    expect(told.map(Number).join('')).toBe('010101100100000');
  });

  it('of the second version (every run id written) is still read', () => {
    // As the second version's writer wrote it: run ids r-1, r-2, then two unset.
    const v2 =
      '{"v":2,"s":["exact"],"n":4,"t":[16015,"q0","r-1",3,"a",[1],2,2,120,20,"a",3,"q1","r-2",3,"q2",null,1,"q3"]}';
    expect(trialsFromChunk(v2).map((t) => [t.caseIndex, t.input, t.runId])).toEqual([
      [0, 'q0', 'r-1'],
      [1, 'q1', 'r-2'],
      [2, 'q2', undefined],
      [3, 'q3', undefined],
    ]);
    expect(() => trialsFromChunk('{"v":9,"s":[],"n":0,"t":[]}')).toThrow('version 9');
  });

  it('of the first version (one array a trial) is still read, also from a store file', async () => {
    const v1 = JSON.stringify({
      v: 1,
      s: ['exact', 'judge'],
      r: run,
      t: [
        [
          0,
          0,
          85,
          'q0',
          'a',
          'done',
          [1, { name: 'judge', score: 0.8, pass: true, reason: 'fine' }],
          2,
          2,
          120,
          20,
          31.5,
          'a',
          0.0004,
          '000000000001',
        ],
        [1, 1, 10, object, '', 'error', [0, 0], 0, 0, 0, 0, 0.25, 'billing-7', 'the model timed out'],
      ],
    });
    const trials: TrialRecord[] = [
      {
        caseId: '1',
        caseIndex: 0,
        trial: 0,
        input: 'q0',
        output: 'a',
        status: 'done',
        pass: true,
        scores: [
          { name: 'exact', score: 1, pass: true },
          { name: 'judge', score: 0.8, pass: true, reason: 'fine' },
        ],
        steps: 2,
        llmCalls: 2,
        promptTokens: 120,
        completionTokens: 20,
        latencyMs: 31.5,
        expected: 'a',
        costUsd: 0.0004,
        runId: `${run}000000000001`,
      },
      {
        caseId: 'billing-7',
        caseIndex: 1,
        trial: 1,
        input: object,
        output: '',
        status: 'error',
        pass: false,
        scores: [
          { name: 'exact', score: 0, pass: false },
          { name: 'judge', score: 0, pass: false },
        ],
        steps: 0,
        llmCalls: 0,
        promptTokens: 0,
        completionTokens: 0,
        latencyMs: 0.25,
        error: 'the model timed out',
      },
    ];
    expect(trialsFromChunk(v1)).toStrictEqual(trials);
    const file = join(mkdtempSync(join(tmpdir(), 'chunks-')), 'thinkflow.db');
    await new SqliteExperimentStore({ file }).close();
    const db = new Database(file);
    db.prepare("INSERT INTO eval_trial_chunks (experiment_id, first_case, trials) VALUES ('old', 0, ?)").run(v1);
    db.close();
    const store = new SqliteExperimentStore({ file });
    const read: TrialRecord[] = [];
    for await (const t of store.trials('old')) read.push(t);
    expect(read).toStrictEqual(trials);
    await store.close();
  });
});
