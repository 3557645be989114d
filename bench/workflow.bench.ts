/**
 * Workflow overhead: a 10-step linear workflow of plain function steps against a hand-written
 * sequence of the same functions, in memory at steady state; and store commits per step with SQLite.
 * Run: npm run build && node --import tsx bench/workflow.bench.ts
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type * as SqliteEntry from '../src/entries/sqlite.js';
import type * as WorkflowEntry from '../src/entries/workflow.js';
import type { WorkflowStore } from '../src/entries/workflow.js';

// Measure the compiled package when it is built (what users run); else the sources through tsx.
const built = new URL('../dist/entries/workflow.js', import.meta.url);
const source = existsSync(built) ? 'dist' : 'src';
const { createStep, createWorkflow, memoryWorkflowStore } = (await import(
  source === 'dist' ? built.href : '../src/entries/workflow.js'
)) as typeof WorkflowEntry;
const { sqliteWorkflowStore } = (await import(
  source === 'dist' ? new URL('../dist/entries/sqlite.js', import.meta.url).href : '../src/entries/sqlite.js'
)) as typeof SqliteEntry;
console.log(`measuring ${source}`);

const STEPS = 10;
// A plain function step: a little real work (parse, transform, serialise), as a pipeline step does.
const work = (doc: { id: number; text: string }) => ({
  id: doc.id + 1,
  text: doc.text.toUpperCase().split(' ').reverse().join(' '),
});
const Doc = z.object({ id: z.number(), text: z.string() });
const steps = Array.from({ length: STEPS }, (_, i) => createStep({ id: `s${i}`, input: Doc, output: Doc, run: work }));
let builder = createWorkflow({ id: 'bench', input: Doc, output: Doc }) as unknown as {
  then(s: unknown): typeof builder;
  commit(): { run(i: unknown, o?: unknown): Promise<unknown> };
};
for (const step of steps) builder = builder.then(step);
const flow = builder.commit();
const input = { id: 0, text: 'the quick brown fox jumps over the lazy dog' };

async function handWritten(): Promise<unknown> {
  let value = input;
  for (let i = 0; i < STEPS; i++) value = await work(value);
  return value;
}

/** Wall and CPU µs per call of `fn` over `n` calls. CPU time moves less with the machine's load. */
async function time(n: number, fn: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const cpu0 = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  const wall = Number(process.hrtime.bigint() - start) / n / 1000;
  const used = process.cpuUsage(cpu0);
  return { wall, cpu: (used.user + used.system) / n };
}

// Short alternating pairs: on a shared machine whose speed drifts by 2× within seconds, each pair's
// ratio compares the two under the same conditions; the median of many pairs is the figure. A batch
// lasts 50–100 ms, so a collection of the other batch's garbage inside it is noise, not a bias.
const PAIRS = 30;
const store = memoryWorkflowStore();
const runWorkflow = () => flow.run(input, { store });
for (let i = 0; i < 2000; i++) await handWritten();
for (let i = 0; i < 1000; i++) await runWorkflow();
const hands: number[] = [];
const flows: number[] = [];
const wallRatios: number[] = [];
const cpuRatios: number[] = [];
for (let pair = 0; pair < PAIRS; pair++) {
  const hand = await time(5000, handWritten);
  const wf = await time(1000, runWorkflow);
  hands.push(hand.wall);
  flows.push(wf.wall);
  wallRatios.push(wf.wall / hand.wall);
  cpuRatios.push(wf.cpu / hand.cpu);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const quartiles = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return [sorted[Math.floor(xs.length / 4)]!, sorted[Math.floor((xs.length * 3) / 4)]!];
};
const show = (xs: number[], unit: string) => {
  const [q1, q3] = quartiles(xs);
  return `median ${median(xs).toFixed(2)}${unit}, middle half ${q1.toFixed(2)}–${q3.toFixed(2)}${unit}, range ${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}${unit}`;
};
console.log(`hand-written sequence:    ${show(hands, ' µs')} per run`);
console.log(`workflow (memory store):  ${show(flows, ' µs')} per run`);
console.log(`workflow / hand-written, wall: ${show(wallRatios, '×')} (${PAIRS} pairs)`);
console.log(`workflow / hand-written, CPU:  ${show(cpuRatios, '×')} (${PAIRS} pairs)`);

// Store commits per step with SQLite: count the store's write calls over one run.
const dir = mkdtempSync(join(tmpdir(), 'thinkflow-wf-bench-'));
const sqlite = sqliteWorkflowStore({ file: join(dir, 'wf.db') });
let commits = 0;
const tally =
  <A extends unknown[], R>(fn: (...args: A) => R) =>
  (...args: A): R => {
    commits++;
    return fn(...args);
  };
const counted: WorkflowStore = {
  ...sqlite,
  createRun: tally(sqlite.createRun),
  updateRun: tally(sqlite.updateRun),
  saveStep: tally(sqlite.saveStep),
  deleteSteps: tally(sqlite.deleteSteps),
  // The run's lease: taken before the run is created, given up at its end.
  claimRun: tally(sqlite.claimRun!),
  releaseRun: tally(sqlite.releaseRun!),
};
await flow.run(input, { store: counted });
console.log(
  `SQLite commits for a ${STEPS}-step run: ${commits} (${(commits / STEPS).toFixed(1)} per step, incl. the run's lease, create and end)`,
);
for (let i = 0; i < 100; i++) await flow.run(input, { store: sqlite });
const sqliteRun = await time(500, () => flow.run(input, { store: sqlite }));
console.log(`SQLite run: ${(sqliteRun.wall / 1000).toFixed(2)} ms per 10-step run`);
sqlite.close?.();
rmSync(dir, { recursive: true, force: true });
