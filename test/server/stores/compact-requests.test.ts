import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.js';
import type { AgentEvent } from '../../../src/core/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { createApp, PostgresRunStore, type RunStore, SqliteRunStore } from '../../../src/server/index.js';
import { unpackEvents } from '../../../src/server/stores/event-block-codec.js';
import { defineTool } from '../../../src/tools/index.js';
import { TEST_PG, uniqueName } from '../pg-fixtures.js';
import { callReply, parseSse, postJson, tempDir } from '../server-fixtures.js';

const STEPS = 30;

/**
 * An agent that looks something up 30 times with long results, under a prompt budget small enough
 * that old steps are dropped and summarized, and with a progress reflection every 5 steps: earlier
 * messages change from one request to the next.
 */
function trimmingAgent() {
  // Counted here, not from the prompt: trimming drops the earlier tool results from it.
  let done = 0;
  const model = scriptedModel((request) => {
    const last = request.messages.at(-1)?.content ?? '';
    if (String(last).startsWith('Pause and reflect')) return 'Progress: looking things up. Next: keep going.';
    done += 1;
    return done <= STEPS ? callReply(`c${done}`, 'lookup', { query: `topic ${done}` }) : 'All looked up.';
  });
  const lookup = defineTool({
    name: 'lookup',
    description: 'Looks a topic up.',
    input: z.object({ query: z.string() }),
    run: ({ query }) => `${query}: ${'a long finding about it. '.repeat(12)}`,
  });
  const summarizer = scriptedModel(() => 'Summary of the earlier lookups.');
  const agent = new Agent({
    model,
    tools: [lookup],
    maxSteps: STEPS + 5,
    context: { budgetTokens: 900, summarize: summarizer },
    reflectEvery: 5,
  });
  return { agent, model };
}

/** A store that records each event's JSON as the loop handed it over, before the store touches it. */
function recording(store: RunStore): { store: RunStore; sent: Map<number, string> } {
  const sent = new Map<number, string>();
  const proxy = new Proxy(store, {
    get(target, key) {
      if (key === 'appendEvent')
        return (runId: string, seq: number, event: AgentEvent) => {
          sent.set(seq, JSON.stringify(event));
          return target.appendEvent(runId, seq, event);
        };
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: proxy, sent };
}

async function checkRoundTrip(inner: RunStore) {
  const { agent, model } = trimmingAgent();
  const { store, sent } = recording(inner);
  const app = createApp({ agents: { a: () => agent }, store });
  const request = (path: string, init?: RequestInit) => app.fetch(new Request(`http://localhost${path}`, init));
  const question = `Look 30 things up (ticket Q-4711), in this order: ${'one topic after another, '.repeat(20)}`;
  const answered = await (await request('/v1/agents/a/runs?wait=true', postJson({ input: question }))).text();
  const ended = JSON.parse(answered);
  expect(ended.status).toBe('done');
  // The run as read back (its result rebuilt from shared strings) is the run as it ended, byte for byte
  // (plus the `kind` that GET /v1/runs/:id adds, as it answers for agent and workflow runs alike).
  const asEnded = `${answered.slice(0, -1)},"kind":"agent"}`;
  expect(await (await request(`/v1/runs/${ended.id}`)).text()).toBe(asEnded);

  const events = parseSse(await (await request(`/v1/runs/${ended.id}/events`)).text());
  expect(events.map((e) => e.data)).toEqual([...sent.values()]);
  const requests = events.filter((e) => e.event === 'model_request').map((e) => JSON.parse(e.data));
  // What the model was sent for each step, in order, equals what the rebuilt events say.
  const stepCalls = model.calls.filter((c) => !String(c.messages.at(-1)?.content).startsWith('Pause and reflect'));
  expect(requests.map((r) => JSON.stringify(r.messages))).toEqual(stepCalls.map((c) => JSON.stringify(c.messages)));
  expect(requests.map((r) => JSON.stringify(r.tools))).toEqual(stepCalls.map((c) => JSON.stringify(c.tools)));
  expect(events.filter((e) => e.event === 'context_summary').length).toBeGreaterThan(0);
  expect(model.calls.length).toBeGreaterThan(stepCalls.length);
  expect(requests.length).toBeGreaterThanOrEqual(STEPS);
  // Trimming and summaries really changed earlier messages: not every request extends the one before.
  const extendsPrevious = requests.slice(1).filter((r, i) => {
    const before = JSON.stringify(requests[i].messages).slice(0, -1);
    return JSON.stringify(r.messages).startsWith(before);
  });
  expect(extendsPrevious.length).toBeLessThan(requests.length - 1);

  // Resuming after any event, the rest comes back byte for byte.
  for (const after of [1, Number(events[Math.floor(events.length / 2)].id), events.length - 2]) {
    const rest = parseSse(
      await (await request(`/v1/runs/${ended.id}/events`, { headers: { 'Last-Event-ID': String(after) } })).text(),
    );
    expect(rest.map((e) => e.data)).toEqual([...sent.values()].slice(after));
  }
  await app.runs.close();
  return { runId: ended.id as string, sentBytes: requests.reduce((n, r) => n + JSON.stringify(r).length, 0) };
}

describe('model requests stored as what changed', () => {
  it('rebuild byte for byte over a 30-step run with trimming and summaries (SQLite)', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const path = join(dir.path, 'runs.db');
    const store = new SqliteRunStore({ path });
    const { runId, sentBytes } = await checkRoundTrip(store);
    await store.close();
    const db = new Database(path, { readonly: true });
    const stored = db
      .prepare('SELECT events FROM run_event_blocks WHERE run_id = ?')
      .all(runId)
      .flatMap((row) => JSON.parse(unpackEvents((row as { events: Buffer }).events)) as AgentEvent[])
      .filter((event) => event.type === 'model_request');
    const storedBytes = stored.reduce((n, e) => n + JSON.stringify(e).length, 0);
    // Each request keeps only what is new: a fraction of the conversation sent again and again.
    expect(storedBytes).toBeLessThan(sentBytes / 4);
    // The question and each tool result are stored once, though events and the result repeat them.
    const all = [
      ...db
        .prepare('SELECT events FROM run_event_blocks WHERE run_id = ?')
        .all(runId)
        .map((row) => unpackEvents((row as { events: Buffer }).events)),
      ...db.prepare('SELECT input AS text, result AS text2 FROM runs WHERE id = ?').all(runId),
    ].flatMap((row) => (typeof row === 'string' ? [row] : Object.values(row as Record<string, string>)));
    const count = (text: string) => all.reduce((n, stored) => n + stored.split(text).length - 1, 0);
    expect(count('Q-4711')).toBe(1);
    expect(count('topic 7: a long finding')).toBe(1);
    db.close();
    dir.cleanup();
  });

  it('rebuild byte for byte over a 30-step run with trimming and summaries (PostgreSQL)', {
    timeout: 60_000,
  }, async () => {
    const store = new PostgresRunStore({ connectionString: TEST_PG, schema: uniqueName('tf_test') });
    await store.init();
    try {
      await checkRoundTrip(store);
    } finally {
      await store.drop();
      await store.close();
    }
  });

  it('reads requests stored whole by older versions, next to compact ones', async () => {
    const dir = tempDir();
    const path = join(dir.path, 'runs.db');
    const first = new SqliteRunStore({ path });
    const request = (step: number, messages: string[]): AgentEvent => ({
      type: 'model_request',
      runId: 'old',
      ts: step,
      step,
      model: 'm',
      messages: messages.map((content) => ({ role: 'user', content })),
    });
    await first.close();
    // Written by a version that stored every request whole.
    const db = new Database(path);
    const whole = [request(0, ['a']), request(1, ['a', 'b'])];
    db.prepare('INSERT INTO run_event_blocks VALUES (?, ?, ?, ?)').run('old', 1, 2, JSON.stringify(whole));
    db.close();
    const store = new SqliteRunStore({ path });
    await store.appendEvent('old', 3, request(2, ['a', 'b', 'c']));
    expect((await store.readEvents('old', 0)).map((e) => e.event)).toEqual([...whole, request(2, ['a', 'b', 'c'])]);
    await store.close();
    dir.cleanup();
  });
});
