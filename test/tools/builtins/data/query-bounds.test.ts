import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Queries that explode, each run by query_data in a fresh process (fixtures/run-query.ts) that reports
 * how the call ended, how long it took and the peak RSS of itself and of the query process (VmHWM from
 * /proc, polled every 10 ms). Each must end in a clear error, within a loose time bound (the machine is
 * shared), with memory bounded by the configured limit, and the calling process must stay small.
 */

const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'run-query.ts');
const MiB = 1024 * 1024;
const PROCESS_LIMIT = 512 * MiB;
let root: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tf-bounds-')));
  await writeFile(path.join(root, 'data.csv'), 'a,b\n1,2\n');
  execFileSync('mkfifo', [path.join(root, 'pipe.csv')]);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

interface Outcome {
  sql: string;
  ok: boolean;
  text: string;
  ms: number;
  selfPeak: number;
  childPeak: number;
}

/** Runs the calls one after the other in one fresh process (a start costs seconds on a loaded machine). */
function runQueries(calls: [string, Record<string, unknown>][]): Promise<Outcome[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, root, JSON.stringify(calls)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('exit', (code) => {
      try {
        const outcomes = out
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Outcome);
        if (outcomes.length !== calls.length) throw new Error('missing outcomes');
        resolve(outcomes);
      } catch {
        reject(new Error(`fixture exited with ${code}: ${out}\n${err}`));
      }
    });
  });
}

const SHORT = { dataTimeoutMs: 3000 };

/** Each exploding query, the options it runs with, and the clear error it must end in. */
const EXPLODING: [string, string, Record<string, unknown>, RegExp][] = [
  // Before: 11-80 s and about 2 GB of peak memory in the agent's own process.
  ['a billion-character repeat', "SELECT length(repeat('x', 1000000000))", {}, /more than 16777216 characters/],
  ['a two-billion-character pad', "SELECT length(lpad('a', 2000000000, 'x'))", {}, /more than 16777216 characters/],
  ['a billion-element list (the process watchdog)', 'SELECT length(range(1000000000))', {}, /512 MB memory limit/],
  [
    "a five-gigabyte string_agg (DuckDB's own memory_limit)",
    "SELECT length(string_agg('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', '')) FROM range(100000000)",
    {},
    /memory/i,
  ],
  [
    'a trillion-row count (the interrupt)',
    'SELECT count(*) FROM range(1000000000000)',
    SHORT,
    /longer than the 3 s limit/,
  ],
  [
    'a recursive CTE without an end',
    'WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT count(*) FROM t',
    SHORT,
    /longer than the 3 s limit|memory/i,
  ],
  [
    'a FIFO inside the root, whose read never returns (the kill)',
    "SELECT count(*) FROM read_csv('ROOT/pipe.csv')",
    SHORT,
    /longer than the 3 s limit/,
  ],
  ['/dev/zero', "SELECT count(*) FROM read_csv('/dev/zero')", {}, /Permission Error/],
];

describe('query_data bounds every query in memory and time', () => {
  let outcomes: Outcome[];

  beforeAll(async () => {
    const calls = EXPLODING.map(
      ([, sql, options]) => [sql.replace('ROOT', root), options] as [string, Record<string, unknown>],
    );
    calls.push(["SELECT repeat('x', 10000000) AS big, 1 AS n", {}]);
    outcomes = await runQueries(calls);
  }, 300_000);

  it('ends the billion-character repeat within seconds, far under the limit, before it allocates', () => {
    const [repeat] = outcomes;
    expect(repeat.ok).toBe(false);
    expect(repeat.ms).toBeLessThan(15_000);
    expect(repeat.childPeak).toBeLessThan(PROCESS_LIMIT / 2);
  });

  it.each(EXPLODING.map(([label, , , reason], index) => [label, index, reason] as const))(
    '%s ends in a clear error, bounded in time and memory',
    (_label, index, reason) => {
      const outcome = outcomes[index];
      expect(outcome.ok, outcome.text).toBe(false);
      expect(outcome.text).toMatch(reason);
      expect(outcome.ms).toBeLessThan(20_000);
      // The query process may pass its limit by what it allocates between two 20 ms checks.
      expect(outcome.childPeak).toBeLessThan(PROCESS_LIMIT * 1.25);
      expect(outcome.selfPeak).toBeLessThan(400 * MiB);
    },
  );

  it('cuts a ten-million-character cell to what is shown', () => {
    const cell = outcomes[EXPLODING.length];
    expect(cell.ok, cell.text).toBe(true);
    expect(cell.text.length).toBeLessThan(1000);
    expect(cell.selfPeak).toBeLessThan(400 * MiB);
  });
});
