import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.js';
import { type AgentEvent, redactedJson } from '../../../src/core/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { createApp, PostgresRunStore, type RunStore, SqliteRunStore } from '../../../src/server/index.js';
import { packEvents, unpackEvents } from '../../../src/server/stores/event-block-codec.js';
import { defineTool } from '../../../src/tools/index.js';
import { TEST_PG, uniqueName } from '../pg-fixtures.js';
import { postJson, tempDir } from '../server-fixtures.js';

const STEPS = 6;

/**
 * Six steps, each streaming a long thought (hundreds of deltas) before its call: the run's requests,
 * and the tool results they repeat, lie pages apart.
 */
function longRun() {
  const model = scriptedModel(
    (request) => {
      const done = request.messages.filter((m) => m.role === 'tool').length;
      const thought = `Step ${done}: ${'thinking about the next topic, '.repeat(100)}`;
      if (done >= STEPS) return `All ${done} topics looked up. ${thought}`;
      return {
        text: thought,
        toolCalls: [{ id: `c${done}`, name: 'lookup', arguments: JSON.stringify({ topic: `topic ${done}` }) }],
      };
    },
    { streamChunkSize: 8 },
  );
  const lookup = defineTool({
    name: 'lookup',
    description: 'Looks a topic up.',
    input: z.object({ topic: z.string() }),
    run: ({ topic }) => `Everything known about ${topic}, in a long enough sentence to be stored once.`,
  });
  return new Agent({ model, tools: [lookup] });
}

/** Runs it, then reads it back page by page from a store opened afresh (nothing cached), from several points. */
async function checkPages(open: () => RunStore | Promise<RunStore>, rewrite?: () => void) {
  const sent: string[] = [];
  const writer = await open();
  const store = new Proxy(writer, {
    get(target, key) {
      if (key === 'appendEvent')
        return (runId: string, seq: number, event: AgentEvent) => {
          sent.push(redactedJson(event));
          return target.appendEvent(runId, seq, event);
        };
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const app = createApp({ agents: { long: () => longRun() }, store });
  const ended = await (
    await app.fetch(
      new Request('http://localhost/v1/agents/long/runs?wait=true', postJson({ input: 'Look it all up.' })),
    )
  ).json();
  await app.runs.close();
  await writer.close();
  expect(sent.length).toBeGreaterThan(2500);
  rewrite?.();

  for (const start of [0, 999, 1234, sent.length - 3]) {
    const reader = await open();
    const read: string[] = [];
    for (let after = start; ; ) {
      const page = await reader.readEvents(ended.id, after);
      if (page.length === 0) break;
      expect(page[0].seq).toBe(after + 1);
      read.push(...page.map((stored) => JSON.stringify(stored.event)));
      after = page[page.length - 1].seq;
    }
    expect(read).toEqual(sent.slice(start));
    const run = await reader.getRun(ended.id);
    expect(JSON.stringify(run?.result)).toBe(JSON.stringify(ended.result));
    await reader.close();
  }
}

describe('reading a long run page by page', () => {
  it('gives back every event as emitted, from any point, with nothing cached (SQLite)', async () => {
    const dir = tempDir();
    try {
      await checkPages(() => new SqliteRunStore({ path: join(dir.path, 'runs.db') }));
    } finally {
      dir.cleanup();
    }
  }, 60_000);

  it('reads a log kept in one block, as versions before bounded blocks wrote it (SQLite)', async () => {
    const dir = tempDir();
    const path = join(dir.path, 'runs.db');
    // Every block of the run merged into one, as one commit of a fast stream used to write it.
    const merge = () => {
      const db = new Database(path);
      const rows = db.prepare('SELECT run_id, events FROM run_event_blocks ORDER BY last_seq').all() as {
        run_id: string;
        events: Buffer;
      }[];
      expect(rows.length).toBeGreaterThan(10);
      const all = rows.flatMap((row) => JSON.parse(unpackEvents(row.events)) as unknown[]);
      db.prepare('DELETE FROM run_event_blocks').run();
      db.prepare('INSERT INTO run_event_blocks (run_id, first_seq, last_seq, events) VALUES (?, 1, ?, ?)').run(
        rows[0].run_id,
        all.length,
        packEvents(all),
      );
      db.close();
    };
    try {
      await checkPages(() => new SqliteRunStore({ path }), merge);
    } finally {
      dir.cleanup();
    }
  }, 60_000);

  it('gives back every event as emitted, from any point, with nothing cached (PostgreSQL)', async () => {
    const schema = uniqueName('tf_pages');
    const open = async () => {
      const store = new PostgresRunStore({ connectionString: TEST_PG, schema });
      await store.init();
      return store;
    };
    try {
      await checkPages(open);
    } finally {
      const last = await open();
      await last.drop();
      await last.close();
    }
  }, 60_000);
});
