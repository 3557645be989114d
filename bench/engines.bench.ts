/**
 * What a durable engine costs per step, measured in one run on this machine:
 * - the built-in engine (the server's run service over its SQLite run store: checkpoints and events),
 * - Restate (a real restate-server 1.7.12, the agent as a service on an HTTP/2 endpoint in this process),
 * - DBOS (the agent as a workflow on the PostgreSQL at 127.0.0.1:5432, a fresh database).
 * Each runs the same agent: a scripted model and a trivial tool, STEPS tool steps then an answer. It
 * prints the time per step of one run (median of REPEATS), its ratio to the built-in engine, and the
 * wall time of CONCURRENT runs started together (DBOS's through its queue, as a deployment scales out;
 * its single runs start in this process, so its queue's polling is not counted as step time).
 *
 *   node --import tsx bench/engines.bench.ts [--steps 20] [--concurrent 100] [--repeats 5]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { z } from 'zod';
import { Agent } from '../src/agent/index.js';
import { dbosAgent } from '../src/entries/dbos.js';
import { restateAgent } from '../src/entries/restate.js';
import { scriptedModel } from '../src/llm/index.js';
import { createApp, SqliteRunStore } from '../src/server/index.js';
import { defineTool } from '../src/tools/index.js';
import { freePort, startRestateServer } from '../test/engines/engine-processes.js';

const { values } = parseArgs({
  options: { steps: { type: 'string' }, concurrent: { type: 'string' }, repeats: { type: 'string' } },
});
const STEPS = Number(values.steps ?? 20);
const CONCURRENT = Number(values.concurrent ?? 100);
const REPEATS = Number(values.repeats ?? 5);

function benchAgent(): Agent {
  const note = defineTool({
    name: 'note',
    description: 'Notes a number.',
    input: z.object({ n: z.number() }),
    idempotent: true,
    run: ({ n }) => `noted ${n}`,
  });
  const model = scriptedModel((request) => {
    const done = request.messages.filter((m) => m.role === 'tool').length;
    if (done >= STEPS) return 'done';
    return { text: '', toolCalls: [{ id: `c${done}`, name: 'note', arguments: JSON.stringify({ n: done }) }] };
  });
  return new Agent({ name: 'bench', model, tools: [note], maxSteps: STEPS + 2 });
}

/** Starts one run and resolves when it ended. */
type RunOnce = () => Promise<void>;

interface Engine {
  name: string;
  runOnce: RunOnce;
  /** How the batch starts a run, when not as `runOnce` (DBOS: through its queue, which polls). */
  runQueued?: RunOnce;
  close(): Promise<void>;
}

async function builtin(dir: string): Promise<Engine> {
  const store = new SqliteRunStore({ path: join(dir, 'runs.db') });
  const app = createApp({ agents: { bench: benchAgent }, store });
  return {
    name: 'built-in',
    async runOnce() {
      const response = await app.fetch(
        new Request('http://localhost/v1/agents/bench/runs?wait=true', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ input: 'go' }),
        }),
      );
      const run = (await response.json()) as { status: string };
      if (run.status !== 'done') throw new Error(`built-in run ended ${run.status}`);
    },
    async close() {
      await app.runs.close();
      await store.close();
    },
  };
}

async function restate(dir: string): Promise<Engine> {
  const sdk = await import('@restatedev/restate-sdk');
  const server = await startRestateServer(join(dir, 'restate'));
  const port = await freePort();
  const endpoint = sdk.endpoint().bind(await restateAgent(benchAgent()));
  const http = createServer(endpoint.http2Handler());
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  const register = await fetch(`${server.admin}/deployments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ uri: `http://127.0.0.1:${port}`, force: true }),
  });
  if (!register.ok) throw new Error(`register: ${await register.text()}`);
  return {
    name: 'Restate',
    async runOnce() {
      const response = await fetch(`${server.ingress}/bench/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify('go'),
      });
      const run = (await response.json()) as { status: string };
      if (run.status !== 'done') throw new Error(`Restate run ended ${JSON.stringify(run)}`);
    },
    async close() {
      http.close();
      await server.stop();
    },
  };
}

async function dbos(): Promise<Engine> {
  const { DBOS } = await import('@dbos-inc/dbos-sdk');
  const database = `thinkflow_bench_${process.pid}`;
  const server = process.env.THINKFLOW_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
  const admin = async (sql: string) => {
    const db = new pg.Client({ connectionString: server });
    await db.connect();
    await db.query(sql).finally(() => db.end());
  };
  await admin(`CREATE DATABASE ${database}`);
  const agent = dbosAgent(benchAgent(), { workerConcurrency: CONCURRENT });
  const systemDatabaseUrl = Object.assign(new URL(server), { pathname: `/${database}` }).toString();
  DBOS.setConfig({ name: 'thinkflow-bench', systemDatabaseUrl });
  await DBOS.launch();
  await agent.launch();
  return {
    name: 'DBOS',
    // Started in this process: the time of the steps, not of the queue's polling.
    async runOnce() {
      const handle = await DBOS.startWorkflow(agent.workflow)({ input: 'go' });
      const run = await handle.getResult();
      if (run.status !== 'done') throw new Error(`DBOS run ended ${run.status}`);
    },
    async runQueued() {
      const run = await agent.result(await agent.start('go'));
      if (run.status !== 'done') throw new Error(`DBOS run ended ${run.status}`);
    },
    async close() {
      await DBOS.shutdown();
      await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(engine: Engine) {
  await engine.runOnce(); // warm up
  const times: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const started = performance.now();
    await engine.runOnce();
    times.push(performance.now() - started);
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENT }, () => (engine.runQueued ?? engine.runOnce)()));
  const batch = performance.now() - started;
  // A run of STEPS tool steps asks the model STEPS + 1 times: a step is a model call and a tool call.
  return { perStep: median(times) / (STEPS + 1), batch };
}

const dir = mkdtempSync(join(tmpdir(), 'engines-bench-'));
try {
  const rows: { name: string; perStep: number; batch: number }[] = [];
  for (const start of [() => builtin(dir), () => restate(dir), () => dbos()]) {
    const engine = await start();
    try {
      rows.push({ name: engine.name, ...(await measure(engine)) });
    } finally {
      await engine.close();
    }
  }
  const base = rows[0].perStep;
  console.log(`${STEPS} tool steps per run, median of ${REPEATS}; ${CONCURRENT} runs at once for the batch.`);
  console.log('engine    | ms per step | × built-in | wall for the batch');
  for (const row of rows) {
    const ratio = (row.perStep / base).toFixed(1);
    console.log(
      `${row.name.padEnd(9)} | ${row.perStep.toFixed(2).padStart(11)} | ${ratio.padStart(10)} | ${(row.batch / 1000).toFixed(2)} s`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
