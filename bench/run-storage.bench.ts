/**
 * Bytes the SQLite run store keeps per run, for a 5-step and a 30-step run over a 4k-token context
 * (a ~15 KB document in the question, ~600-character tool results): the events as JSON (model requests
 * as what changed, repeated strings as references) and as stored (packed), the run's row, and the whole
 * file per run against what the run itself says: its distinct messages and the model's outputs. For the
 * figures before, run this file against an older checkout's src/.
 *
 * With --convert-mb N it instead times what opening costs for an N MB file made before incremental
 * vacuum (converted at open up to 64 MiB; `thinkflow runs vacuum` for larger ones).
 *
 * With --pg it also measures what PostgreSQL's tables grow by per run (no packing there; TOAST
 * compresses values over 2 KB itself).
 *
 *   node --import tsx bench/run-storage.bench.ts [--pg] [--convert-mb 64]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { Agent } from '../src/agent/index.js';
import { scriptedModel } from '../src/llm/index.js';
import { createApp, PostgresRunStore, type RunStore, SqliteRunStore } from '../src/server/index.js';
import { unpackEvents } from '../src/server/stores/event-block-codec.js';
import { defineTool } from '../src/tools/index.js';

const RUNS = 40;
// Text that does not repeat itself: seeded sentences over 1,000 made-up words, about as hard to
// compress as English prose, so no stored form gains from a document that is one sentence over and over.
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const SYLLABLES = 'ba ce di fo gu ha je ki lo mu na pe ri so tu va we xi yo za ar en il on us'.split(' ');
const WORDS = Array.from({ length: 1000 }, () =>
  Array.from({ length: 1 + Math.floor(random() * 3) }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join(
    '',
  ),
);
const sentence = (words: number) =>
  Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
const DOCUMENT = Array.from(
  { length: 250 },
  (_, i) => `Line ${i}: ${sentence(8)} ${(random() * 1000).toFixed(1)}k (${(random() * 40 - 20).toFixed(1)}%).`,
).join('\n');

function agent(steps: number) {
  let done = 0;
  return new Agent({
    model: scriptedModel(() => {
      done += 1;
      if (done >= steps) return 'The figures are summarised above: growth in all regions.';
      return {
        text: `I will look up part ${done}.`,
        toolCalls: [{ id: `c${done}`, name: 'lookup', arguments: JSON.stringify({ part: done }) }],
      };
    }),
    tools: [
      defineTool({
        name: 'lookup',
        description: 'Looks up one part of the report.',
        input: z.object({ part: z.number() }),
        run: ({ part }) => `Part ${part}: ${sentence(120)}.`,
      }),
    ],
    maxSteps: steps + 2,
  });
}

/** Runs RUNS runs of `steps` steps through `store`; returns their ids and their content's size. */
async function runAll(store: RunStore, steps: number): Promise<{ ids: string[]; content: number }> {
  const app = createApp({ agents: { a: () => agent(steps) }, store });
  const ids: string[] = [];
  for (let i = 0; i < RUNS; i++) {
    const response = await app.fetch(
      new Request('http://localhost/v1/agents/a/runs?wait=true', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ input: `Summarise this report:\n${DOCUMENT}` }),
      }),
    );
    ids.push(((await response.json()) as { id: string }).id);
  }
  let content = 0;
  for (const id of ids) {
    const events = (await store.readEvents(id, 0, 100_000)).map((e) => e.event);
    const messages = new Set<string>();
    for (const event of events) {
      if (event.type === 'model_request') for (const message of event.messages) messages.add(JSON.stringify(message));
      if (event.type === 'model_response') content += JSON.stringify(event.text).length;
    }
    for (const message of messages) content += message.length;
  }
  await app.runs.close();
  return { ids, content };
}

/** The same runs in PostgreSQL: what its tables (indexes and TOAST included) grew by, per run. */
async function measurePg(steps: number) {
  const schema = `storage_${process.pid}`;
  const store = new PostgresRunStore({ connectionString: PG, schema });
  await store.init();
  // Rewritten tables: what the rows take, without the dead versions of checkpoints updated step by step
  // (this test server has autovacuum off; autovacuum would make that space reusable, not give it back).
  const pg = await import('pg');
  const pool = new pg.default.Pool({ connectionString: PG, max: 1 });
  const full = () =>
    pool.query(
      `VACUUM FULL ${['runs', 'run_events', 'run_steps', 'run_checkpoints'].map((t) => `${schema}.${t}`).join(', ')}`,
    );
  await full();
  const empty = (await store.stats()).bytes;
  const { content } = await runAll(store, steps);
  await full();
  await pool.end();
  const bytes = (await store.stats()).bytes - empty;
  await store.drop();
  await store.close();
  return { perRun: Math.round(bytes / RUNS), overContent: bytes / content };
}

async function measure(steps: number) {
  const dir = mkdtempSync(join(tmpdir(), 'thinkflow-storage-'));
  const path = join(dir, 'runs.db');
  const store = new SqliteRunStore({ path });
  const { content } = await runAll(store, steps);
  await store.close();
  const db = new Database(path, { readonly: true });
  let storedEvents = 0;
  let eventsJson = 0;
  for (const row of db.prepare('SELECT events FROM run_event_blocks').all() as { events: string | Buffer }[]) {
    storedEvents += row.events.length;
    eventsJson += unpackEvents(row.events).length;
  }
  const { rowBytes } = db
    .prepare('SELECT SUM(LENGTH(input) + COALESCE(LENGTH(result), 0)) AS rowBytes FROM runs')
    .get() as { rowBytes: number };
  const used =
    (db.pragma('page_count', { simple: true }) as number) - (db.pragma('freelist_count', { simple: true }) as number);
  const fileBytes = used * (db.pragma('page_size', { simple: true }) as number);
  db.close();
  if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
  else console.log(path);
  const perRun = (n: number) => Math.round(n / RUNS);
  return {
    steps,
    contentPerRun: perRun(content),
    eventsJsonPerRun: perRun(eventsJson),
    eventsStoredPerRun: perRun(storedEvents),
    rowPerRun: perRun(rowBytes),
    filePerRun: perRun(fileBytes),
    fileOverContent: fileBytes / content,
  };
}

/** Opens an N MB file in the old layout (auto_vacuum NONE) and times the conversion and a later vacuum. */
async function convert(megabytes: number) {
  const dir = mkdtempSync(join(tmpdir(), 'thinkflow-convert-'));
  const path = join(dir, 'runs.db');
  new SqliteRunStore({ path }).close();
  const db = new Database(path);
  db.exec('PRAGMA auto_vacuum = NONE; VACUUM');
  const runs = Math.round((megabytes * 1_048_576) / 4200);
  db.prepare(`WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?)
    INSERT INTO runs (id, agent, input, status, source, created_at, updated_at)
    SELECT printf('r%08d', i), 'a', hex(randomblob(500)), 'done', 'api', i, i FROM k`).run(runs);
  db.prepare(`INSERT INTO run_event_blocks (run_id, first_seq, last_seq, events)
    SELECT id, 1, 1, randomblob(3000) FROM runs`).run();
  db.close();
  const started = performance.now();
  const store = new SqliteRunStore({ path, vacuumAtOpenMaxBytes: Number.POSITIVE_INFINITY });
  const ms = performance.now() - started;
  const stats = await store.stats();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(
    `${(stats.bytes / 1_048_576).toFixed(0)} MB file made before incremental vacuum: ${store.vacuumAtOpen} at open in ${(ms / 1000).toFixed(1)} s`,
  );
}

const { values: args } = parseArgs({
  options: { 'convert-mb': { type: 'string' }, pg: { type: 'boolean', default: false } },
});
const PG = process.env.THINKFLOW_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
if (args['convert-mb']) {
  await convert(Number(args['convert-mb']));
  process.exit(0);
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(`run storage, SQLite, ${RUNS} runs each, ~4k-token context`);
for (const steps of [5, 30]) {
  const m = await measure(steps);
  console.log(
    `${String(steps).padStart(2)} steps: content ${kb(m.contentPerRun)}/run | events ${kb(m.eventsJsonPerRun)} JSON → ${kb(m.eventsStoredPerRun)} stored | ` +
      `run row ${kb(m.rowPerRun)} | file ${kb(m.filePerRun)}/run, ${m.fileOverContent.toFixed(2)}× content`,
  );
  if (args.pg) {
    const p = await measurePg(steps);
    console.log(
      `${String(steps).padStart(2)} steps, PostgreSQL: ${kb(p.perRun)}/run, ${p.overContent.toFixed(2)}× content`,
    );
  }
}
