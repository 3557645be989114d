import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../src/core/index.js';
import { kthSmallest } from '../../../src/eval/experiment/stats.js';
import { summaryTally } from '../../../src/eval/experiment/summary-tally.js';
import {
  bootstrapMean,
  contains,
  createScorer,
  memoryExperimentStore,
  noError,
  runExperiment,
  summarizeTrials,
  type TrialRecord,
} from '../../../src/eval/index.js';
import { scoreAll } from '../../../src/eval/scorers/scorer.js';

/** The percentile interval of resampling one value at a time (what bootstrapMean computes), for reference. */
function resampledInterval(values: number[], seed: number): [number, number] {
  const random = mulberry32(seed);
  const means: number[] = [];
  for (let r = 0; r < 4000; r++) {
    let sum = 0;
    for (let i = 0; i < values.length; i++) sum += values[Math.floor(random() * values.length)];
    means.push(sum / values.length);
  }
  means.sort((a, b) => a - b);
  return [means[100], means[3899]];
}

function trial(caseIndex: number, t: number, score: number, latencyMs: number): TrialRecord {
  return {
    caseId: String(caseIndex + 1),
    caseIndex,
    trial: t,
    input: caseIndex,
    output: '',
    status: 'done',
    pass: score === 1,
    scores: [{ name: 'a', score, pass: score === 1 }],
    steps: 1,
    llmCalls: 1,
    promptTokens: 0,
    completionTokens: 0,
    latencyMs,
  };
}

describe('the bootstrap on pass/fail scores', () => {
  it('draws the interval of resampling one value at a time', () => {
    for (const [n, passed] of [
      [40, 12],
      [300, 270],
      [2000, 1000],
    ]) {
      const values = Array.from({ length: n }, (_, i) => (i < passed ? 1 : 0));
      const { low, high, mean } = bootstrapMean(values, { seed: 3 });
      const [refLow, refHigh] = resampledInterval(values, 5);
      expect(mean).toBe(passed / n);
      const width = refHigh - refLow;
      expect(Math.abs(low - refLow)).toBeLessThanOrEqual(0.1 * width + 1 / n);
      expect(Math.abs(high - refHigh)).toBeLessThanOrEqual(0.1 * width + 1 / n);
    }
  });

  it('gives any two levels, and a constant, their interval', () => {
    const e = bootstrapMean([0.25, 0.75, 0.75, 0.25, 0.75, 0.75, 0.75, 0.25]);
    expect(e.low).toBeGreaterThanOrEqual(0.25);
    expect(e.high).toBeLessThanOrEqual(0.75);
    expect(e.low).toBeLessThan(e.mean);
    expect(e.high).toBeGreaterThan(e.mean);
    expect(bootstrapMean([0.3, 0.3, 0.3])).toEqual({ mean: 0.3, low: 0.3, high: 0.3, n: 3 });
  });
});

describe('the summary tally', () => {
  it('gives the same summary whatever order the trials arrive in', async () => {
    const random = mulberry32(11);
    const trials: TrialRecord[] = [];
    for (let c = 0; c < 50; c++)
      for (let t = 0; t < 3; t++) trials.push(trial(c, t, random() < 0.6 ? 1 : 0.5 * random(), random() * 100));
    const ordered = await summarizeTrials(trials, { trials: 3, durationMs: 1 });
    const shuffled = [...trials].sort(() => random() - 0.5);
    const tally = summaryTally(3);
    for (const t of shuffled) tally.add(t);
    expect(tally.summary({ durationMs: 1 })).toEqual(ordered);
    expect(ordered).toMatchObject({ cases: 50, trials: 150, steps: 150 });
  });

  it('gives the mean and 95th percentile latency of the trials as a full sort reads them', async () => {
    const random = mulberry32(13);
    for (const n of [1, 2, 19, 20, 21, 400]) {
      // Few distinct latencies (repeats) and many, as whole and fractional milliseconds.
      const trials = Array.from({ length: n }, (_, c) =>
        trial(c, 0, 1, n % 2 ? Math.floor(random() * 5) : random() * 1000),
      );
      const sorted = trials.map((t) => t.latencyMs).sort((a, b) => a - b);
      const summary = await summarizeTrials(trials, { trials: 1, durationMs: 1 });
      expect(summary.p95LatencyMs).toBe(sorted[Math.min(n - 1, Math.ceil(0.95 * n) - 1)]);
      expect(summary.meanLatencyMs).toBeCloseTo(sorted.reduce((a, b) => a + b, 0) / n, 9);
    }
  });

  it('picks the k-th smallest number as a sort does', () => {
    const random = mulberry32(17);
    for (let round = 0; round < 300; round++) {
      const n = 1 + Math.floor(random() * 60);
      const spread = random() < 0.5 ? 4 : 1000;
      const values = Array.from({ length: n }, () => Math.floor(random() * spread) - spread / 2);
      const sorted = [...values].sort((a, b) => a - b);
      const k = Math.floor(random() * n);
      expect(kthSmallest([...values], k)).toBe(sorted[k]);
    }
  });

  it('gives one trial a case of pass/fail scores, read from their counts, the interval and pass@1 of the scores themselves', () => {
    const random = mulberry32(5);
    for (const [cases, share] of [
      [1, 1],
      [30, 0],
      [30, 1],
      [200, 0.7],
    ]) {
      const scores = Array.from({ length: cases }, () => (random() < share ? 1 : 0));
      const tally = summaryTally(1);
      for (const [c, score] of scores.entries()) tally.add(trial(c, 0, score, c));
      const summary = tally.summary({ durationMs: 1, seed: 9 });
      const { mean, low, high, n } = bootstrapMean(scores, { seed: 9 });
      expect(summary.scorers.a).toMatchObject({ mean, low, high, n });
      expect(summary.cases).toBe(cases);
      expect(summary.passAtK[1]).toBeCloseTo(scores.filter((s) => s === 1).length / cases, 12);
      // Case 0 scored again: its last score is the one the interval reads, as a re-run trial's is.
      const again = summaryTally(1);
      again.add(trial(0, 0, 1 - scores[0], 5));
      for (const [c, score] of scores.entries()) again.add(trial(c, 0, score, c));
      expect(again.summary({ durationMs: 1, seed: 9 }).scorers.a).toMatchObject({ mean, low, high, n });
    }
    // A score between 0 and 1 takes the path over each case's values: the same interval.
    const tally = summaryTally(1);
    const mixed = [1, 0.5, 0, 1, 1, 0.25];
    for (const [c, score] of mixed.entries()) tally.add(trial(c, 0, score, c));
    expect(tally.summary({ durationMs: 1 }).scorers.a).toMatchObject(bootstrapMean(mixed));
  });

  it('is what the store holds when an experiment runs several trials at once', async () => {
    const store = memoryExperimentStore();
    const experiment = await runExperiment({
      store,
      name: 'order',
      data: Array.from({ length: 40 }, (_, i) => ({ input: i, expected: i % 3 ? 'yes' : 'no' })),
      // Later cases finish first, so trials reach the tally out of order.
      task: async (input) => {
        await new Promise((resolve) => setTimeout(resolve, 40 - (input as number)));
        return (input as number) % 2 ? 'yes' : 'no';
      },
      scorers: [contains(), noError()],
      trials: 2,
      concurrency: 8,
    });
    expect(experiment.summary.cases).toBe(40);
    const fromStore = await summarizeTrials(store.trials(experiment.meta.id), {
      trials: 2,
      durationMs: experiment.summary.durationMs,
    });
    expect(experiment.summary).toEqual(fromStore);
    expect(experiment.summary.scorers.contains.mean).toBeGreaterThan(0.3);
  });
});

describe('scoreAll', () => {
  it('scores synchronous scorers without a promise, and keeps errors and order with async ones', async () => {
    const sync = createScorer({ name: 'sync', score: () => 1 });
    const throws = createScorer({
      name: 'throws',
      score: () => {
        throw new Error('bad');
      },
    });
    const later = createScorer({ name: 'later', score: async () => ({ score: 0.5, reason: 'half' }) });
    const rejects = createScorer({ name: 'rejects', score: async () => Promise.reject(new Error('no')) });
    const input = { input: 'q', output: 'a' };
    const now = scoreAll([sync, throws], input);
    expect(Array.isArray(now)).toBe(true);
    expect(now).toEqual([
      { name: 'sync', score: 1, pass: true },
      { name: 'throws', score: 0, pass: false, error: 'bad' },
    ]);
    const mixed = scoreAll([sync, later, throws, rejects, sync], input);
    expect(mixed).toBeInstanceOf(Promise);
    expect((await mixed).map((s) => [s.name, s.score, s.error ?? s.reason ?? ''])).toEqual([
      ['sync', 1, ''],
      ['later', 0.5, 'half'],
      ['throws', 0, 'bad'],
      ['rejects', 0, 'no'],
      ['sync', 1, ''],
    ]);
  });
});
