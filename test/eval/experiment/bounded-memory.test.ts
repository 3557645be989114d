import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { contains, noError, type RunLike, runExperiment, SqliteExperimentStore } from '../../../src/eval/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMb = () => {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

/** A run as heavy as a real one: 4 steps with a 5 KB tool output each (20 KB a run, 200 MB over 10,000 runs). */
function heavyRun(i: number): RunLike {
  return {
    runId: `run-${i}`,
    status: 'done',
    output: `answer ${i}`,
    steps: Array.from({ length: 4 }, (_, s) => ({
      kind: 'tool_calls' as const,
      toolCalls: [
        { id: `c${s}`, name: 'search', input: { q: i }, output: `${i}`.padEnd(5_000, 'x'), ok: true, durationMs: 1 },
      ],
    })),
    usage: { promptTokens: 100, completionTokens: 10, llmCalls: 4 },
    durationMs: 1,
  };
}

describe('a 10,000-case experiment', () => {
  it('streams trials to the store and holds no run in memory', async () => {
    const store = new SqliteExperimentStore({ file: join(mkdtempSync(join(tmpdir(), 'big-')), 'thinkflow.db') });
    const data = Array.from({ length: 10_000 }, (_, i) => ({ input: i, expected: `answer ${i}` }));
    const before = heapMb();
    let peak = 0;
    const experiment = await runExperiment({
      name: 'big',
      data,
      task: (input) => heavyRun(input as number),
      scorers: [contains(), noError()],
      store,
      concurrency: 8,
      onProgress: (p) => {
        if (p.done % 2_500 === 0) peak = Math.max(peak, heapMb());
      },
    });
    peak = Math.max(peak, heapMb());
    expect(experiment.summary).toMatchObject({ cases: 10_000, passed: 10_000, steps: 40_000 });
    // 200 MB of steps went through; what stays is the data array and a few numbers per case.
    const growth = peak - before;
    console.log(`heap before ${before.toFixed(1)} MB, peak ${peak.toFixed(1)} MB, growth ${growth.toFixed(1)} MB`);
    expect(growth).toBeLessThan(40);
    await store.close();
  }, 120_000);
});
