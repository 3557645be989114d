/**
 * Soak: `serve` with one five-step agent and a short retention, CLIENTS callers looping on
 * POST /v1/agents/:name/runs?wait=true for MINUTES. Every 15 s it prints runs/s, the store's size on
 * disk and the server's RSS and heap; at the end, how flat the second half was (max−min over mean),
 * runs lost, and whether the paused runs made at the start (waiting for approval, older than the
 * retention) survived. With --backlog N it first stores N expired runs and reports p95 latency of
 * live runs before and while the pruner deletes them.
 *
 *   node --expose-gc --import tsx bench/soak.bench.ts [--pg] [--minutes 10] [--clients 20] [--rate 0] [--backlog 0]
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { Agent } from '../src/agent/index.js';
import { scriptedModel } from '../src/llm/index.js';
import { type RunRecord, type RunStore, serve, startRetention } from '../src/server/index.js';
import { defineTool } from '../src/tools/index.js';

const { values: args } = parseArgs({
  options: {
    pg: { type: 'boolean', default: false },
    minutes: { type: 'string', default: '10' },
    clients: { type: 'string', default: '20' },
    backlog: { type: 'string', default: '0' },
    // Runs started per second across all clients (0: as fast as they go). A steady rate keeps the
    // retained window (rate × retention) steady, so disk flatness measures the store, not throughput swings.
    rate: { type: 'string', default: '0' },
    'retention-seconds': { type: 'string', default: '30' },
    // For a PostgreSQL server with autovacuum off (as the test server here is): VACUUM the tables every N s, as autovacuum would.
    'vacuum-every': { type: 'string', default: '0' },
  },
});
const PG = process.env.THINKFLOW_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const minutes = Number(args.minutes);
const clients = Number(args.clients);
const retentionSeconds = Number(args['retention-seconds']);

const echo = defineTool({
  name: 'echo',
  description: 'Echoes the text.',
  input: z.object({ text: z.string() }),
  run: ({ text }) => `echo: ${text}`,
});
const approveMe = defineTool({
  name: 'launch',
  description: 'Needs a person to approve.',
  input: z.object({}),
  needsApproval: true,
  run: () => 'launched',
});

function fiveSteps() {
  let done = 0;
  return new Agent({
    model: scriptedModel(() => {
      done += 1;
      if (done >= 5) return 'All done.';
      return {
        text: '',
        toolCalls: [{ id: `c${done}`, name: 'echo', arguments: JSON.stringify({ text: `s${done}` }) }],
      };
    }),
    tools: [echo],
  });
}
function paused() {
  return new Agent({
    model: scriptedModel(() => ({ text: '', toolCalls: [{ id: 'l', name: 'launch', arguments: '{}' }] })),
    tools: [approveMe],
  });
}

const dir = mkdtempSync(join(tmpdir(), 'thinkflow-soak-'));
const schema = `soak_${process.pid}`;
const server = await serve({
  config: {
    agents: { five: fiveSteps, paused },
    // With a backlog the pruner is started by hand below, after a baseline without it.
    retention:
      Number(args.backlog) > 0 ? { maxAgeDays: 0 } : { maxAgeDays: retentionSeconds / 86_400, intervalMs: 5_000 },
    store: args.pg ? { type: 'postgres', connectionString: PG, schema } : undefined,
    limits: { maxConcurrentRuns: 64, maxQueuedRuns: 10_000 },
  },
  port: 0,
  dataDir: dir,
  log: () => {},
});
const store: RunStore = server.store;
const post = async (agent: string, wait: boolean) => {
  const started = performance.now();
  const response = await fetch(`${server.url}/v1/agents/${agent}/runs${wait ? '?wait=true' : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ input: 'Do the five steps.' }),
  });
  return { run: (await response.json()) as RunRecord, ms: performance.now() - started };
};

const diskBytes = async () => {
  if (args.pg) return (await store.stats()).bytes;
  return readdirSync(dir)
    .filter((f) => f.startsWith('runs.db'))
    .reduce((n, f) => n + statSync(join(dir, f)).size, 0);
};

// Paused runs older than the retention: they must never be pruned.
const waiting: string[] = [];
for (let i = 0; i < 5; i++) waiting.push((await post('paused', false)).run.id);

const backlog = Number(args.backlog);
if (backlog > 0) {
  const seeded = performance.now();
  await seedBacklog(backlog);
  console.log(`stored ${backlog} expired runs in ${((performance.now() - seeded) / 1000).toFixed(0)} s`);
}

/**
 * Stores `n` finished runs from a day ago, each with one block of events (1 KB), straight in SQL:
 * through the API a million runs took longer than the soak itself.
 */
async function seedBacklog(n: number): Promise<void> {
  const old = Date.now() - 86_400_000;
  const chunk = 100_000;
  if (args.pg) {
    const pg = await import('pg');
    const pool = new pg.default.Pool({ connectionString: PG, max: 1 });
    for (let first = 0; first < n; first += chunk) {
      const last = Math.min(n, first + chunk) - 1;
      await pool.query(
        `INSERT INTO ${schema}.runs (id, agent, input, status, source, created_at, updated_at)
         SELECT 'backlog-' || lpad(i::text, 8, '0'), 'five', 'old', 'done', 'api', $1::bigint + i, $1::bigint + i FROM generate_series($2::int, $3::int) i`,
        [old, first, last],
      );
      await pool.query(
        `INSERT INTO ${schema}.run_events (run_id, seq, event)
         SELECT 'backlog-' || lpad(i::text, 8, '0'), 1, repeat('x', 1000) FROM generate_series($1::int, $2::int) i`,
        [first, last],
      );
    }
    await pool.query(`VACUUM ANALYZE ${schema}.runs, ${schema}.run_events`);
    await pool.end();
    return;
  }
  const db = new Database(join(dir, 'runs.db'));
  db.pragma('busy_timeout = 30000');
  const numbers = 'WITH RECURSIVE k(i) AS (SELECT @first UNION ALL SELECT i + 1 FROM k WHERE i < @last)';
  const runs = db.prepare(`${numbers} INSERT INTO runs (id, agent, input, status, source, created_at, updated_at)
    SELECT printf('backlog-%08d', i), 'five', 'old', 'done', 'api', @old + i, @old + i FROM k`);
  const events = db.prepare(`${numbers} INSERT INTO run_event_blocks (run_id, first_seq, last_seq, events)
    SELECT printf('backlog-%08d', i), 1, 1, randomblob(1000) FROM k`);
  for (let first = 0; first < n; first += chunk) {
    const bounds = { first, last: Math.min(n, first + chunk) - 1, old };
    db.transaction(() => {
      runs.run(bounds);
      events.run({ first: bounds.first, last: bounds.last });
    })();
  }
  db.close();
}

const vacuumEvery = Number(args['vacuum-every']);
if (args.pg && vacuumEvery > 0) {
  const pg = await import('pg');
  const pool = new pg.default.Pool({ connectionString: PG, max: 1 });
  const vacuum = setInterval(() => {
    pool
      .query(`VACUUM ${['runs', 'run_events', 'run_steps', 'run_checkpoints'].map((t) => `${schema}.${t}`).join(', ')}`)
      .catch((error: unknown) => console.error(`vacuum: ${String(error)}`));
  }, vacuumEvery * 1000);
  vacuum.unref();
}

const rate = Number(args.rate);
let nextSlot = performance.now();
/** Waits for the next start slot when the load is rate-limited. */
const paced = async () => {
  if (rate <= 0) return;
  const slot = Math.max(performance.now(), nextSlot);
  nextSlot = slot + 1000 / rate;
  const wait = slot - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
};

let completed = 0;
let lost = 0;
let latencies: number[] = [];
let stop = false;
const workers = Array.from({ length: clients }, async () => {
  while (!stop) {
    await paced();
    if (stop) break;
    try {
      const { run, ms } = await post('five', true);
      if (run.status === 'done') completed += 1;
      else lost += 1;
      latencies.push(ms);
    } catch {
      lost += 1;
    }
  }
});

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)] ?? 0;
if (backlog > 0) {
  // Baseline p95 with no pruner, then p95 while the pruner deletes the whole backlog.
  latencies = [];
  const baselineStart = completed;
  await new Promise((resolve) => setTimeout(resolve, 60_000));
  const baseline = p95(latencies);
  const baselineRate = (completed - baselineStart) / 60;
  latencies = [];
  const before = completed;
  const pruneStart = Date.now();
  const retention = startRetention({ store, config: { maxAgeDays: 600 / 86_400, intervalMs: 3_600_000 } });
  const pruned = await retention.prune();
  const seconds = (Date.now() - pruneStart) / 1000;
  console.log(
    `backlog: p95 ${baseline.toFixed(1)} ms (${baselineRate.toFixed(0)} runs/s) without pruning → ${p95(latencies).toFixed(1)} ms ` +
      `(${((completed - before) / seconds).toFixed(0)} runs/s) while pruning ${pruned} runs in ${seconds.toFixed(1)} s`,
  );
  await retention.stop();
  stop = true;
  await Promise.all(workers);
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
const samples: { t: number; disk: number; rss: number; heap: number }[] = [];
const started = Date.now();
let last = { t: started, completed: 0 };
const mb = (n: number) => (n / 1_048_576).toFixed(1);
console.log(
  `soak: ${args.pg ? 'PostgreSQL' : 'SQLite'}, ${clients} clients${rate > 0 ? ` at ${rate} runs/s` : ''}, ${minutes} min, retention ${retentionSeconds} s`,
);
while (Date.now() - started < minutes * 60_000) {
  await new Promise((resolve) => setTimeout(resolve, 15_000));
  (globalThis as { gc?: () => void }).gc?.();
  const now = Date.now();
  const sample = {
    t: (now - started) / 1000,
    disk: await diskBytes(),
    rss: process.memoryUsage().rss,
    heap: process.memoryUsage().heapUsed,
  };
  samples.push(sample);
  const rate = ((completed - last.completed) * 1000) / (now - last.t);
  console.log(
    `${sample.t.toFixed(0).padStart(5)} s  ${rate.toFixed(0).padStart(5)} runs/s  p95 ${p95(latencies).toFixed(1)} ms  disk ${mb(sample.disk)} MB  rss ${mb(sample.rss)} MB  heap ${mb(sample.heap)} MB`,
  );
  latencies = [];
  last = { t: now, completed };
}
stop = true;
await Promise.all(workers);

const half = samples.slice(Math.floor(samples.length / 2));
const spread = (xs: number[]) => {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return ((Math.max(...xs) - Math.min(...xs)) / mean) * 100;
};
const survivors = await store.getRuns(waiting);
const kept = await store.stats();
console.log(`store at the end: ${kept.runs} runs kept of ${completed + waiting.length} made`);
console.log(
  `second half: disk ±${(spread(half.map((s) => s.disk)) / 2).toFixed(1)}%, rss ±${(spread(half.map((s) => s.rss)) / 2).toFixed(1)}%, ` +
    `heap ±${(spread(half.map((s) => s.heap)) / 2).toFixed(1)}% | runs ${completed}, lost ${lost} | ` +
    `paused runs kept ${survivors.length}/${waiting.length} (${survivors.map((r) => r.status).join(',')})`,
);
await server.close();
if (args.pg) {
  const pg = await import('pg');
  const pool = new pg.default.Pool({ connectionString: PG });
  await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await pool.end();
}
rmSync(dir, { recursive: true, force: true });
