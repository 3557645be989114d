import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { AgentEvent, RunResult } from '../../../src/core/index.js';
import { emptyStats } from '../../../src/core/index.js';
import { PostgresRunStore, type RunRecord, type RunStore, SqliteRunStore } from '../../../src/server/index.js';
import { unpackEvents } from '../../../src/server/stores/event-block-codec.js';
import { TEST_PG, uniqueName } from '../pg-fixtures.js';
import { tempDir } from '../server-fixtures.js';

const QUESTION = 'Read this long question once, and answer it: what changed?';
const OUTPUT = 'A tool result long enough to be worth sharing.';
/** Strings that look like the stored form of a shared string, and must come back as they were. */
const LOOKALIKES = ['§1.0', '§§', '§', '§0.0 but longer than the shortest shared string'];

function run(id: string): RunRecord {
  return { id, agent: 'a', input: QUESTION, status: 'running', source: 'api', createdAt: 1, updatedAt: 1 };
}

/** A run's log repeating the question and a tool result, with lookalikes, a child's event and keys out of the usual order. */
function events(runId: string): AgentEvent[] {
  return [
    { type: 'run_start', runId, ts: 1, input: QUESTION, model: 'm', protocol: 'native', tools: ['t'] },
    { type: 'model_request', runId, ts: 2, step: 0, model: 'm', messages: [{ role: 'user', content: QUESTION }] },
    { type: 'tool_end', runId, ts: 3, step: 0, callId: 'c', tool: 't', ms: 1, ok: true, output: OUTPUT },
    { type: 'observation', runId, ts: 4, step: 0, text: OUTPUT },
    { type: 'observation', runId: 'child-run', parentRunId: runId, ts: 5, step: 0, text: OUTPUT },
    { runId, type: 'observation', ts: 6, step: 0, text: OUTPUT } as AgentEvent,
    { type: 'tool_end', runId, ts: 7, step: 1, callId: 'd', tool: 't', ms: 1, ok: true, output: LOOKALIKES[3] },
    {
      type: 'model_request',
      runId,
      ts: 8,
      step: 1,
      model: 'm',
      messages: [
        { role: 'user', content: QUESTION },
        { role: 'tool', toolCallId: 'c', name: 't', content: OUTPUT },
        ...LOOKALIKES.map((content) => ({ role: 'user' as const, content })),
      ],
    },
    { type: 'final', runId, ts: 9, step: 1, output: OUTPUT },
  ];
}

function result(runId: string): RunResult {
  return {
    runId,
    status: 'done',
    output: OUTPUT,
    steps: [{ index: 0, kind: 'final', raw: OUTPUT, toolCalls: [], answer: LOOKALIKES.join(' ') }],
    usage: { promptTokens: 1, completionTokens: 1, llmCalls: 1 },
    stats: emptyStats(),
    durationMs: 3,
  };
}

/** Writes a run through the store and reads every part of it back, byte for byte. */
async function roundTrip(store: RunStore, runId: string) {
  const sent = events(runId);
  await store.createRun(run(runId));
  await Promise.all(sent.map((event, i) => store.appendEvent(runId, i + 1, event)));
  await store.updateRun(runId, { status: 'done', result: result(runId), updatedAt: 2 });
  const json = (list: { event: AgentEvent }[]) => list.map((stored) => JSON.stringify(stored.event));
  expect(json(await store.readEvents(runId, 0))).toEqual(sent.map((event) => JSON.stringify(event)));
  for (const after of [2, 5, 8]) {
    expect(json(await store.readEvents(runId, after))).toEqual(sent.slice(after).map((event) => JSON.stringify(event)));
  }
  expect(JSON.stringify((await store.getRun(runId))?.result)).toBe(JSON.stringify(result(runId)));
  expect(JSON.stringify((await store.getRuns([runId]))[0]?.result)).toBe(JSON.stringify(result(runId)));
}

describe('long strings stored once', () => {
  it('come back byte for byte from SQLite, and are stored once', async () => {
    const dir = tempDir();
    const path = join(dir.path, 'runs.db');
    const store = new SqliteRunStore({ path });
    await roundTrip(store, 'r1');
    await store.close();
    const db = new Database(path, { readonly: true });
    const text = [
      ...db.prepare('SELECT events AS t FROM run_event_blocks').all(),
      ...db.prepare('SELECT input AS t FROM runs UNION ALL SELECT result FROM runs').all(),
    ]
      .map((row) => unpackEvents((row as { t: string | Buffer }).t))
      .join('\n');
    db.close();
    expect(text.split(QUESTION).length - 1).toBe(1);
    // Once for the run; the child's event (another run's) and the one with keys out of order are stored whole.
    expect(text.split(OUTPUT).length - 1).toBe(3);
    dir.cleanup();
  });

  it('come back byte for byte from PostgreSQL', async () => {
    const store = new PostgresRunStore({ connectionString: TEST_PG, schema: uniqueName('tf_test') });
    await store.init();
    try {
      await roundTrip(store, 'r1');
    } finally {
      await store.drop();
      await store.close();
    }
  });

  it('leave rows written before them as they were, lookalikes included (SQLite)', async () => {
    const dir = tempDir();
    const path = join(dir.path, 'runs.db');
    await new SqliteRunStore({ path }).close();
    const old = events('old');
    // Written by a version that stored everything whole.
    const db = new Database(path);
    db.prepare(
      `INSERT INTO runs (id, agent, input, status, source, created_at, updated_at, result) VALUES ('old', 'a', ?, 'done', 'api', 1, 1, ?)`,
    ).run(QUESTION, JSON.stringify(result('old')));
    db.prepare('INSERT INTO run_event_blocks VALUES (?, ?, ?, ?)').run('old', 1, old.length, JSON.stringify(old));
    db.close();
    const store = new SqliteRunStore({ path });
    expect((await store.readEvents('old', 0)).map((stored) => stored.event)).toEqual(old);
    expect((await store.readEvents('old', 4)).map((stored) => stored.event)).toEqual(old.slice(4));
    expect((await store.getRun('old'))?.result).toEqual(result('old'));
    await store.close();
    dir.cleanup();
  });

  it('leave rows written before them as they were (PostgreSQL)', async () => {
    const schema = uniqueName('tf_test');
    const store = new PostgresRunStore({ connectionString: TEST_PG, schema });
    await store.init();
    const pg = await import('pg');
    const pool = new pg.default.Pool({ connectionString: TEST_PG, max: 1 });
    try {
      const old = events('old');
      await pool.query(
        `INSERT INTO ${schema}.runs (id, agent, input, status, source, created_at, updated_at, result) VALUES ('old', 'a', $1, 'done', 'api', 1, 1, $2)`,
        [QUESTION, JSON.stringify(result('old'))],
      );
      for (const [i, event] of old.entries()) {
        await pool.query(`INSERT INTO ${schema}.run_events VALUES ('old', $1, $2)`, [i + 1, JSON.stringify(event)]);
      }
      expect((await store.readEvents('old', 0)).map((stored) => stored.event)).toEqual(old);
      expect((await store.getRun('old'))?.result).toEqual(result('old'));
    } finally {
      await pool.end();
      await store.drop();
      await store.close();
    }
  });
});
