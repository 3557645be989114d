import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.js';
import { type AgentEvent, redactedJson } from '../../../src/core/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { createApp, PostgresRunStore, type RunStore, SqliteRunStore } from '../../../src/server/index.js';
import { unpackEvents } from '../../../src/server/stores/event-block-codec.js';
import { defineTool } from '../../../src/tools/index.js';
import { TEST_PG, uniqueName } from '../pg-fixtures.js';
import { callReply, parseSse, postJson, tempDir } from '../server-fixtures.js';

const KEY = 'sk-proj-Zx81kQpL0vTt5mNa92bC';

/** A run whose tool reads back a credential: it is then in tool_end, observation and the next requests. */
function leakyAgent() {
  let done = 0;
  const model = scriptedModel(() => {
    done += 1;
    return done <= 3 ? callReply(`c${done}`, 'env', { name: 'OPENAI_API_KEY' }) : 'Configured.';
  });
  const env = defineTool({
    name: 'env',
    description: 'Reads a setting.',
    input: z.object({ name: z.string() }),
    run: ({ name }) => `${name}=${KEY} (and the long text around it, repeated so it is shared)`,
  });
  return new Agent({ model, tools: [env] });
}

/** Runs it through the store and checks every way events are read back. */
async function checkRedacted(inner: RunStore) {
  const sent: AgentEvent[] = [];
  const store = new Proxy(inner, {
    get(target, key) {
      if (key === 'appendEvent')
        return (runId: string, seq: number, event: AgentEvent) => {
          sent.push(event);
          return target.appendEvent(runId, seq, event);
        };
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const app = createApp({ agents: { a: () => leakyAgent() }, store });
  const request = (path: string, init?: RequestInit) => app.fetch(new Request(`http://localhost${path}`, init));
  const ended = await (await request('/v1/agents/a/runs?wait=true', postJson({ input: 'Set it up.' }))).json();
  // What a --trace file of the same run holds, line for line.
  const traced = sent.map((event) => redactedJson(event));
  expect(sent.some((event) => JSON.stringify(event).includes(KEY))).toBe(true);

  const events = parseSse(await (await request(`/v1/runs/${ended.id}/events`)).text()).map((e) => e.data);
  expect(events).toEqual(traced);
  const rest = parseSse(
    await (await request(`/v1/runs/${ended.id}/events`, { headers: { 'Last-Event-ID': '6' } })).text(),
  ).map((e) => e.data);
  expect(rest).toEqual(traced.slice(6));
  const download = await (await request(`/v1/runs/${ended.id}/trace`)).text();
  expect(download).toBe(traced.map((line) => `${line}\n`).join(''));
  expect(download).not.toContain(KEY);
  expect(download).toContain('[redacted]');
  await app.runs.close();
}

describe('events in the run store', () => {
  it('are redacted as traces are, in every read and on disk (SQLite)', async () => {
    const dir = tempDir();
    const path = join(dir.path, 'runs.db');
    const store = new SqliteRunStore({ path });
    await checkRedacted(store);
    await store.close();
    const db = new Database(path, { readonly: true });
    const stored = (db.prepare('SELECT events FROM run_event_blocks').all() as { events: Buffer }[])
      .map((row) => unpackEvents(row.events))
      .join('\n');
    db.close();
    expect(stored).toContain('[redacted]');
    expect(stored).not.toContain(KEY);
    dir.cleanup();
  });

  it('are redacted as traces are, in every read (PostgreSQL)', async () => {
    const store = new PostgresRunStore({ connectionString: TEST_PG, schema: uniqueName('tf_test') });
    await store.init();
    try {
      await checkRedacted(store);
    } finally {
      await store.drop();
      await store.close();
    }
  });
});
