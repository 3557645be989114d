import { describe, expect, it } from 'vitest';
import {
  compareExperiments,
  type ExperimentStore,
  exact,
  loadExperiment,
  memoryExperimentStore,
  runExperiment,
  signTest,
} from '../../../src/eval/index.js';

const data = Array.from({ length: 60 }, (_, i) => ({ id: `c${i}`, input: i, expected: 'ok' }));

/** An experiment where the cases in `failing` answer wrong. */
async function version(store: ExperimentStore, id: string, failing: (i: number) => boolean) {
  await runExperiment({
    name: id,
    id,
    data,
    store,
    scorers: [exact()],
    task: (input) => (failing(input as number) ? 'no' : 'ok'),
  });
  return loadExperiment(store, id);
}

describe('compareExperiments', () => {
  it('finds a planted regression: the delta, its interval, the sign test, the broken and fixed cases', async () => {
    const store = memoryExperimentStore();
    const a = await version(store, 'main', (i) => i === 0 || i === 1);
    // The change fixes case 0 and breaks cases 10..19.
    const b = await version(store, 'pr', (i) => i === 1 || (i >= 10 && i < 20));
    const result = await compareExperiments(a, b, { maxDrop: 0.02 });
    const s = result.scorers[0];
    expect(s.name).toBe('exact');
    expect(s.delta.mean).toBeCloseTo(-9 / 60);
    expect(s.delta.high).toBeLessThan(0);
    expect(s.signTest).toMatchObject({ better: 1, worse: 10 });
    expect(s.signTest.pValue).toBeLessThan(0.05);
    expect(s.verdict).toBe('regressed');
    expect(result.broken).toEqual(['c10', 'c11', 'c12', 'c13', 'c14', 'c15', 'c16', 'c17', 'c18', 'c19']);
    expect(result.fixed).toEqual(['c0']);
    expect(result.verdict).toBe('regression');
    expect(result.reasons[0]).toMatch(/exact fell by 0\.150/);
  });

  it('calls a change within the threshold or noise unchanged, and a clear gain an improvement', async () => {
    const store = memoryExperimentStore();
    const a = await version(store, 'a', (i) => i < 30);
    const same = await version(store, 'same', (i) => i < 30);
    const oneWorse = await version(store, 'one', (i) => i < 31);
    const better = await version(store, 'better', (i) => i < 5);
    expect((await compareExperiments(a, same)).verdict).toBe('unchanged');
    const noise = await compareExperiments(await loadExperiment(store, 'a'), oneWorse, { maxDrop: 0.05 });
    expect(noise.verdict).toBe('unchanged');
    expect(noise.broken).toEqual(['c30']);
    const strict = await compareExperiments(await loadExperiment(store, 'a'), await loadExperiment(store, 'one'), {
      maxBroken: 0,
    });
    expect(strict.verdict).toBe('regression');
    expect((await compareExperiments(await loadExperiment(store, 'a'), better)).verdict).toBe('improvement');
  });

  it('compares only shared cases and lists the rest', async () => {
    const store = memoryExperimentStore();
    await runExperiment({ name: 'x', id: 'x', data: data.slice(0, 3), store, scorers: [exact()], task: () => 'ok' });
    await runExperiment({ name: 'y', id: 'y', data: data.slice(1, 4), store, scorers: [exact()], task: () => 'ok' });
    const result = await compareExperiments(await loadExperiment(store, 'x'), await loadExperiment(store, 'y'));
    expect(result).toMatchObject({ sharedCases: 2, onlyInA: ['c0'], onlyInB: ['c3'] });
  });

  it('sign test: exact two-sided p-values', () => {
    expect(signTest([1, 1, 1, 1, 1]).pValue).toBeCloseTo(2 / 32);
    expect(signTest([0, 0]).pValue).toBe(1);
    expect(signTest([1, -1]).pValue).toBe(1);
  });
});
