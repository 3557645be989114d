/**
 * Service-mode throughput: five-step runs (four tool calls, then the answer) with an instant
 * scripted model, started with POST /v1/agents/:name/runs?wait=true at concurrency 1, 10 and 100.
 * Embedded (SQLite, checkpoint before every model call) against queue mode (BullMQ on the local
 * Redis, PostgreSQL, one in-process worker), next to the floor (`agent.run` alone). Prints runs/s,
 * p95 latency and this process's CPU time per run (which other load on the machine does not inflate).
 *
 *   node --import tsx bench/server.bench.ts [--embedded-only]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { Agent } from '../src/agent/index.js';
import { scriptedModel } from '../src/llm/index.js';
import {
  createApp,
  createQueueRuns,
  createRunWorker,
  PostgresRunStore,
  SqliteRunStore,
  type ThinkflowApp,
} from '../src/server/index.js';
import { defineTool } from '../src/tools/index.js';

const PG = process.env.THINKFLOW_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS = process.env.THINKFLOW_TEST_REDIS ?? 'redis://127.0.0.1:6379';

const echo = defineTool({
  name: 'echo',
  description: 'Echoes the text.',
  input: z.object({ text: z.string() }),
  run: ({ text }) => `echo: ${text}`,
});

function fiveSteps() {
  return new Agent({
    model: scriptedModel((request) => {
      const done = request.messages.filter((m) => m.role === 'tool').length;
      if (done >= 4) return 'All done.';
      return {
        text: '',
        toolCalls: [{ id: `c${done}`, name: 'echo', arguments: JSON.stringify({ text: `step ${done}` }) }],
      };
    }),
    tools: [echo],
  });
}

interface Measured {
  runsPerSecond: number;
  p95: number;
  /** This process's CPU time per run: what the run costs whatever else the machine is doing. */
  cpuMsPerRun: number;
  failed: number;
}

const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

async function drive(concurrency: number, total: number, once: () => Promise<boolean>): Promise<Measured> {
  const latencies: number[] = [];
  let next = 0;
  let failed = 0;
  const started = performance.now();
  const cpu0 = cpuMs();
  async function client() {
    while (next < total) {
      next += 1;
      const t0 = performance.now();
      if (!(await once())) failed += 1;
      latencies.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, client));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const p95 = latencies[Math.floor(latencies.length * 0.95)];
  return { runsPerSecond: total / seconds, p95, cpuMsPerRun: (cpuMs() - cpu0) / total, failed };
}

function measure(app: ThinkflowApp, concurrency: number, total: number): Promise<Measured> {
  return drive(concurrency, total, async () => {
    const response = await app.fetch(
      new Request('http://localhost/v1/agents/steps/runs?wait=true', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"input":"go"}',
      }),
    );
    return ((await response.json()) as { status?: string }).status === 'done';
  });
}

/** The floor: the same runs with `agent.run` directly, no server and no store. */
function floor(concurrency: number, total: number): Promise<Measured> {
  return drive(concurrency, total, async () => (await fiveSteps().run('go')).status === 'done');
}

function row(mode: string, concurrency: number, r: Measured) {
  console.log(
    `${mode.padEnd(9)} c=${String(concurrency).padEnd(4)} ${r.runsPerSecond.toFixed(0).padStart(6)} runs/s   p95 ${r.p95.toFixed(1).padStart(7)} ms   cpu ${r.cpuMsPerRun.toFixed(2)} ms/run (${(1000 / r.cpuMsPerRun).toFixed(0)} runs per cpu-second)${r.failed ? `   FAILED ${r.failed}` : ''}`,
  );
}

const LEVELS: [number, number][] = [
  [1, 200],
  [10, 1000],
  [100, 2000],
];

async function embedded() {
  const dir = mkdtempSync(join(tmpdir(), 'thinkflow-bench-'));
  const store = new SqliteRunStore({ path: join(dir, 'runs.db') });
  const app = createApp({
    agents: { steps: fiveSteps },
    store,
    limits: { maxConcurrentRuns: 100, maxQueuedRuns: 10_000 },
  });
  const results = [];
  await measure(app, 10, 200); // warm-up
  await floor(10, 200);
  for (const [c, n] of LEVELS) {
    const base = await floor(c, n);
    row('floor', c, base);
    const r = await measure(app, c, n);
    row('embedded', c, r);
    console.log(`          embedded / floor cpu per run: ${(r.cpuMsPerRun / base.cpuMsPerRun).toFixed(1)}×`);
    results.push(r);
  }
  await app.runs.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return results;
}

async function queued() {
  const schema = `tf_bench_${Date.now()}`;
  const location = { redisUrl: REDIS, queueName: `bench-${Date.now()}`, prefix: `tfbench${Date.now()}` };
  const apiStore = new PostgresRunStore({ connectionString: PG, schema });
  await apiStore.init();
  const workerStore = new PostgresRunStore({ connectionString: PG, schema });
  const worker = createRunWorker({ ...location, agents: { steps: fiveSteps }, store: workerStore, concurrency: 100 });
  const runs = createQueueRuns({
    ...location,
    agents: ['steps'],
    store: apiStore,
    pollMs: 10,
    limits: { maxQueuedRuns: 10_000 },
  });
  const app = createApp({ runs });
  const results = [];
  await measure(app, 10, 100);
  for (const [c, n] of LEVELS) {
    const r = await measure(app, c, Math.min(n, 500));
    row('redis', c, r);
    results.push(r);
  }
  await worker.close();
  await runs.close();
  await apiStore.drop();
  await apiStore.close();
  await workerStore.close();
  return results;
}

const embeddedResults = await embedded();
if (!process.argv.includes('--embedded-only')) {
  const queueResults = await queued();
  for (const [i, [c]] of LEVELS.entries()) {
    console.log(
      `c=${c}: embedded is ${(embeddedResults[i].runsPerSecond / queueResults[i].runsPerSecond).toFixed(1)}× redis mode`,
    );
  }
}
const c100 = embeddedResults[2];
const perCore = 1000 / c100.cpuMsPerRun;
console.log(
  `target ≥ 500 five-step runs/s at c=100 embedded: ${c100.runsPerSecond.toFixed(0)} measured (wall clock, shared machine), ` +
    `${perCore.toFixed(0)} per cpu-second of this process (${perCore >= 500 ? 'met' : 'NOT met'} on one free core)`,
);
