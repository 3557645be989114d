import { describe, expect, it } from 'vitest';
import { memoryExperimentStore, type TrialRecord } from '../../../src/eval/index.js';

const trial = (caseIndex: number, t: number, output: string): TrialRecord => ({
  caseId: `case-${caseIndex}`,
  caseIndex,
  trial: t,
  input: { q: caseIndex },
  output,
  status: 'done',
  pass: output === 'ok',
  scores: [{ name: 'exact', score: output === 'ok' ? 1 : 0, pass: output === 'ok' }],
  steps: 2,
  llmCalls: 2,
  promptTokens: 10,
  completionTokens: 3,
  latencyMs: caseIndex % 7,
  runId: `run-${caseIndex}-${t}`,
});

describe('memoryExperimentStore', () => {
  it('reads 3,000 trials saved out of order across chunks by case then trial, a trial saved again as its last copy', async () => {
    const store = memoryExperimentStore();
    const meta = {
      id: 'e',
      name: 'e',
      startedAt: '',
      status: 'running' as const,
      cases: 1500,
      trials: 2,
      scorers: ['exact'],
    };
    await store.createExperiment(meta);
    // Trial 1 of every case first, then trial 0 backwards: each chunk of 1,024 holds cases from all over.
    for (let c = 0; c < 1500; c++) await store.saveTrial('e', trial(c, 1, 'ok'));
    for (let c = 1499; c >= 0; c--) await store.saveTrial('e', trial(c, 0, c === 700 ? 'wrong' : 'ok'));
    // Case 700's first trial is run again (a resume) and passes now.
    await store.saveTrial('e', trial(700, 0, 'ok'));
    const read: TrialRecord[] = [];
    for await (const t of store.trials('e')) read.push(t);
    expect(read.length).toBe(3000);
    expect(read.map((t) => `${t.caseIndex}:${t.trial}`).slice(0, 4)).toEqual(['0:0', '0:1', '1:0', '1:1']);
    expect(read.every((t, i) => t.caseIndex === i >> 1 && t.trial === i % 2)).toBe(true);
    expect(read.find((t) => t.caseIndex === 700 && t.trial === 0)).toMatchObject({ output: 'ok', pass: true });
    expect(read[9]).toEqual(trial(4, 1, 'ok'));
    expect((await store.finishedTrials('e')).size).toBe(3000);
  });

  it('refuses a trial of an experiment it does not hold', async () => {
    await expect(memoryExperimentStore().saveTrial('nope', trial(0, 0, 'ok'))).rejects.toThrow('No experiment nope');
  });
});
