import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { SqliteSessionStore } from '../../../src/memory/node.js';
import { createApp, type RunRecord, type ServerLimits, SqliteRunStore } from '../../../src/server/index.js';
import { parseSse, postJson, stepsAgent, tempDir } from '../server-fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An app over a SQLite file in `dir` (a second app on the same dir is the server after a restart). */
function open(dir: string, counter: { calls: number }, limits?: ServerLimits) {
  const store = new SqliteRunStore({ path: join(dir, 'runs.db') });
  const sessions = new SqliteSessionStore({ file: join(dir, 'sessions.db') });
  const slow = () =>
    new Agent({
      model: scriptedModel(['Part one of the answer. ', 'never used'], { delayMs: 150 }),
    });
  const app = createApp({
    agents: { steps: stepsAgent({ toolSteps: 2, counter }), slow },
    store,
    sessions,
    limits,
    hooks: { ping: { agent: 'steps' }, github: { agent: 'steps', deliveryHeader: 'X-GitHub-Delivery' } },
    auth: {
      tokens: [
        { token: 'tok-a', principal: 'alice' },
        { token: 'tok-b', principal: 'bob' },
      ],
    },
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await app.runs.close({ timeoutMs: 2000 });
    await store.close();
    await sessions.close();
  };
  cleanups.push(close);
  const request = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    app.fetch(new Request(`http://localhost${path}`, postJson(body, { authorization: 'Bearer tok-a', ...headers })));
  const runCount = async () => (await store.queryRuns({ limit: 500 })).runs.length;
  return { app, store, request, runCount, close };
}

function fresh(limits?: ServerLimits) {
  const dir = tempDir();
  cleanups.push(async () => dir.cleanup());
  const counter = { calls: 0 };
  return { dir: dir.path, counter, ...open(dir.path, counter, limits) };
}

const key = (value: string) => ({ 'Idempotency-Key': value });

describe('Idempotency-Key: a retried request starts its run once', () => {
  it('returns the first run to a retry with the same key and body, and never starts a second', async () => {
    const s = fresh();
    const first = await s.request('/v1/agents/steps/runs?wait=true', { input: 'go' }, key('k-1'));
    const run = (await first.json()) as RunRecord;
    expect(run.status).toBe('done');
    for (let retry = 0; retry < 3; retry++) {
      const again = await s.request('/v1/agents/steps/runs?wait=true', { input: 'go' }, key('k-1'));
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(((await again.json()) as RunRecord).id).toBe(run.id);
    }
    expect(await s.runCount()).toBe(1);
    expect(s.counter.calls).toBe(2);
    // Without a key, or with another one, a request starts a run of its own.
    await s.request('/v1/agents/steps/runs?wait=true', { input: 'go' });
    await s.request('/v1/agents/steps/runs?wait=true', { input: 'go' }, key('k-2'));
    expect(await s.runCount()).toBe(3);
  });

  it('answers 422 (not retried) when the key comes with another body, route or query', async () => {
    const s = fresh();
    await s.request('/v1/agents/steps/runs', { input: 'go' }, key('k-1'));
    for (const [path, body] of [
      ['/v1/agents/steps/runs', { input: 'something else' }],
      ['/v1/agents/steps/runs?wait=true', { input: 'go' }],
      ['/v1/hooks/ping', { input: 'go' }],
    ] as const) {
      const response = await s.request(path, body, key('k-1'));
      expect(response.status).toBe(422);
      expect(response.headers.get('x-should-retry')).toBe('false');
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unprocessable');
    }
    expect(await s.runCount()).toBe(1);
    const bad = await s.request('/v1/agents/steps/runs', { input: 'go' }, key('has space'));
    expect(bad.status).toBe(400);
  });

  it('starts exactly one run for 25 concurrent requests with one key', async () => {
    const s = fresh();
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => s.request('/v1/agents/steps/runs', { input: 'same' }, key('burst'))),
    );
    const ids = new Set(await Promise.all(answers.map(async (a) => ((await a.json()) as RunRecord).id)));
    expect(ids.size).toBe(1);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 202));
    await s.app.runs.wait([...ids][0]);
    expect(await s.runCount()).toBe(1);
    expect(s.counter.calls).toBe(2);
  });

  it('holds across a restart: the key is kept in the run store', async () => {
    const s = fresh();
    const run = (await (
      await s.request('/v1/agents/steps/runs?wait=true', { input: 'go' }, key('k-r'))
    ).json()) as RunRecord;
    await s.close();
    const again = open(s.dir, s.counter);
    const retried = await again.request('/v1/agents/steps/runs?wait=true', { input: 'go' }, key('k-r'));
    expect(((await retried.json()) as RunRecord).id).toBe(run.id);
    expect(await again.runCount()).toBe(1);
    expect(s.counter.calls).toBe(2);
  });

  it("scopes keys per principal: bob's request with alice's key is his own run", async () => {
    const s = fresh();
    const alice = (await (
      await s.request('/v1/agents/steps/runs', { input: 'go' }, key('shared-key'))
    ).json()) as RunRecord;
    const bob = await s.request(
      '/v1/agents/steps/runs',
      { input: 'go' },
      { ...key('shared-key'), authorization: 'Bearer tok-b' },
    );
    const bobs = (await bob.json()) as RunRecord;
    expect(bobs.id).not.toBe(alice.id);
    expect(bobs.owner).toBe('bob');
  });

  it('covers chat completions, hooks and session turns (the same key returns the same run)', async () => {
    const s = fresh();
    const chat = { model: 'steps', messages: [{ role: 'user', content: 'hi' }] };
    const c1 = (await (await s.request('/v1/chat/completions', chat, key('c'))).json()) as { id: string };
    const c2 = (await (await s.request('/v1/chat/completions', chat, key('c'))).json()) as { id: string };
    expect(c2.id).toBe(c1.id);
    const h1 = (await (await s.request('/v1/hooks/ping', { input: 'x' }, key('h'))).json()) as RunRecord;
    const h2 = (await (await s.request('/v1/hooks/ping', { input: 'x' }, key('h'))).json()) as RunRecord;
    expect(h2.id).toBe(h1.id);
    const turn = { agent: 'steps', input: 'hello' };
    const t1 = await s.request('/v1/sessions/talk/runs', turn, key('t'));
    // The retry arrives while the first turn is still answering the session: it gets that run, not a 409.
    const t2 = await s.request('/v1/sessions/talk/runs', turn, key('t'));
    const [r1, r2] = (await Promise.all([t1.json(), t2.json()])) as RunRecord[];
    expect(t2.status).toBe(202);
    expect(r2.id).toBe(r1.id);
    await s.app.runs.wait(r1.id);
    // After the turn ended, a retry still gets it, and the session holds the question once.
    const t3 = (await (await s.request('/v1/sessions/talk/runs', turn, key('t'))).json()) as RunRecord;
    expect(t3.id).toBe(r1.id);
    const messages = async () =>
      (
        (await (
          await s.app.fetch(
            new Request('http://localhost/v1/sessions/talk', { headers: { authorization: 'Bearer tok-a' } }),
          )
        ).json()) as { messages: { role: string }[] }
      ).messages.map((m) => m.role);
    await expect.poll(messages).toEqual(['user', 'assistant']);
    // The replay left the session free: the next turn (a new key) is answered.
    const next = await s.request('/v1/sessions/talk/runs', { agent: 'steps', input: 'next' }, key('t-next'));
    expect(next.status).toBe(202);
    await s.app.runs.wait(((await next.json()) as RunRecord).id);
    expect(await s.runCount()).toBe(4);
  });

  it('attaches a streamed retry to the first run’s stream instead of starting another', async () => {
    const s = fresh();
    const body = { model: 'slow', stream: true, messages: [{ role: 'user', content: 'tell me' }] };
    const [first, second] = await Promise.all([
      s.request('/v1/chat/completions', body, key('stream')),
      new Promise((resolve) => setTimeout(resolve, 50)).then(() =>
        s.request('/v1/chat/completions', body, key('stream')),
      ),
    ]);
    const texts = await Promise.all([first.text(), second.text()]);
    const content = (text: string) =>
      parseSse(text)
        .filter((e) => e.data !== '[DONE]')
        .map((e) => JSON.parse(e.data) as { id: string; choices: { delta: { content?: string } }[] })
        .map((chunk) => ({ id: chunk.id, text: chunk.choices[0]?.delta.content ?? '' }));
    const [a, b] = texts.map(content);
    expect(b[0].id).toBe(a[0].id);
    expect(b.map((c) => c.text).join('')).toBe(a.map((c) => c.text).join(''));
    expect(a.map((c) => c.text).join('')).toContain('Part one of the answer.');
    expect(await s.runCount()).toBe(1);
  });

  it('releases the key of a refused start (429), so the retry can start the run later', async () => {
    const s = fresh({ maxConcurrentRuns: 1, maxQueuedRuns: 0 });
    const busy = (await (await s.request('/v1/agents/slow/runs', { input: 'occupy' })).json()) as RunRecord;
    const refused = await s.request('/v1/agents/slow/runs', { input: 'later' }, key('q'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    await s.app.runs.wait(busy.id);
    const retried = await s.request('/v1/agents/slow/runs', { input: 'later' }, key('q'));
    expect(retried.status).toBe(202);
    const again = await s.request('/v1/agents/slow/runs', { input: 'later' }, key('q'));
    expect(((await again.json()) as RunRecord).id).toBe(((await retried.json()) as RunRecord).id);
    expect(await s.runCount()).toBe(2);
  });

  it("takes a hook's delivery header as its key: a webhook redelivery starts no second run", async () => {
    const s = fresh();
    const delivery = { 'X-GitHub-Delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958' };
    const first = (await (await s.request('/v1/hooks/github', { action: 'opened' }, delivery)).json()) as RunRecord;
    const again = await s.request('/v1/hooks/github', { action: 'opened' }, delivery);
    expect(again.status).toBe(202);
    expect(((await again.json()) as RunRecord).id).toBe(first.id);
    // A hook without a delivery header configured ignores it.
    await s.request('/v1/hooks/ping', { input: 'x' }, delivery);
    await s.request('/v1/hooks/ping', { input: 'x' }, delivery);
    expect(await s.runCount()).toBe(3);
  });
});
