import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** Runs the fixture in a fresh process with `--expose-gc`, so a full collection is possible and nothing else holds memory. */
async function measure(): Promise<{ runs: number; aliveRuns: number; waits: number; signalGrowthBytes: number }> {
  const script = join(import.meta.dirname, '..', 'fixtures', 'retained-runs.ts');
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', script, '200'], {
    timeout: 120_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
}

describe('the server does not keep finished runs', () => {
  it('runs waited on with a long-lived signal are collected once they ended', { timeout: 150_000 }, async () => {
    const result = await measure();
    expect(result.runs).toBe(200);
    // The last few may still sit in a closure of the final tick; 200 retained was the leak.
    expect(result.aliveRuns).toBeLessThanOrEqual(2);
    // 20,000 timed-out waits on distinct run ids kept 20,000 empty sets (about 2 MB); now none.
    expect(result.signalGrowthBytes).toBeLessThan(500_000);
  });
});
