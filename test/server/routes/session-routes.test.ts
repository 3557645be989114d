import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { SqliteSessionStore } from '../../../src/memory/node.js';
import { createApp } from '../../../src/server/index.js';
import { SqliteRunStore } from '../../../src/server/stores/sqlite-run-store.js';
import { postJson, tempDir } from '../server-fixtures.js';

/** Answers with every user turn it was sent, so a test sees the history the run got. */
const echo =
  (delayMs = 0) =>
  () =>
    new Agent({
      model: scriptedModel(
        (request) =>
          request.messages
            .filter((m) => m.role === 'user')
            .map((m) => m.content)
            .join(' | '),
        { delayMs },
      ),
    });

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function app(options: { tokens?: string[]; dir?: string } = {}) {
  const dir = options.dir ? undefined : tempDir();
  const path = options.dir ?? (dir as { path: string }).path;
  const store = new SqliteRunStore({ path: join(path, 'runs.db') });
  const sessions = new SqliteSessionStore({ dataDir: path });
  const created = createApp({
    agents: { echo: echo(), slow: echo(400) },
    store,
    sessions,
    auth: { tokens: options.tokens },
  });
  cleanups.push(async () => {
    await created.runs.close({ timeoutMs: 1000 });
    await store.close();
    await sessions.close();
    dir?.cleanup();
  });
  const request = (url: string, init: RequestInit = {}) => created.fetch(new Request(`http://localhost${url}`, init));
  return { request, path };
}

type Session = { id: string; messages: { role: string; content: string }[]; running?: string };

/** Waits until the session has no run answering it (its answer stored), and returns it. */
async function settled(request: ReturnType<typeof app>['request'], id: string): Promise<Session> {
  for (;;) {
    const session = (await (await request(`/v1/sessions/${id}`)).json()) as Session;
    if (!session.running) return session;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('/v1/sessions/:id', () => {
  it('keeps each turn in the session store and gives the next run the earlier turns', async () => {
    const { request } = app();
    const first = await request('/v1/sessions/trip/runs', postJson({ agent: 'echo', input: 'first' }));
    expect(first.status).toBe(202);
    expect(first.headers.get('location')).toMatch(/^\/v1\/runs\//);
    expect(await settled(request, 'trip')).toEqual({
      id: 'trip',
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'first' },
      ],
    });
    const second = (await (
      await request('/v1/sessions/trip/runs', postJson({ agent: 'echo', input: 'second' }))
    ).json()) as { id: string };
    await settled(request, 'trip');
    const run = (await (await request(`/v1/runs/${second.id}`)).json()) as { result: { output: string } };
    expect(run.result.output).toBe('first | second');
    expect((await settled(request, 'trip')).messages.map((m) => m.content)).toEqual([
      'first',
      'first',
      'second',
      'first | second',
    ]);
  });

  it('keeps the conversation across servers on the same store', async () => {
    const dir = tempDir();
    cleanups.push(async () => dir.cleanup());
    const one = app({ dir: dir.path });
    await one.request('/v1/sessions/s1/runs', postJson({ agent: 'echo', input: 'hello' }));
    await settled(one.request, 's1');
    const two = app({ dir: dir.path });
    expect((await settled(two.request, 's1')).messages).toHaveLength(2);
  });

  it('answers 409 while a run still answers the session, and names it', async () => {
    const { request } = app();
    const first = (await (await request('/v1/sessions/s/runs', postJson({ agent: 'slow', input: 'a' }))).json()) as {
      id: string;
    };
    const busy = await request('/v1/sessions/s/runs', postJson({ agent: 'slow', input: 'b' }));
    expect(busy.status).toBe(409);
    expect(((await busy.json()) as { error: { message: string } }).error.message).toContain(first.id);
    expect((await request('/v1/sessions/s', { method: 'DELETE' })).status).toBe(409);
    expect((await (await request('/v1/sessions/s')).json()) as Session).toMatchObject({ running: first.id });
    await settled(request, 's');
    expect((await request('/v1/sessions/s/runs', postJson({ agent: 'slow', input: 'b' }))).status).toBe(202);
  });

  it('lets one of two turns sent at once start, and refuses the other with 409', async () => {
    const { request } = app();
    const statuses = await Promise.all(
      ['a', 'b'].map(
        async (input) => (await request('/v1/sessions/s/runs', postJson({ agent: 'echo', input }))).status,
      ),
    );
    expect(statuses.sort()).toEqual([202, 409]);
    expect((await settled(request, 's')).messages).toHaveLength(2);
  });

  it('refuses bad ids, bad bodies and unknown agents with JSON errors, leaving the session as it was', async () => {
    const { request } = app();
    const badId = await request(`/v1/sessions/${'x'.repeat(129)}`);
    expect(badId.status).toBe(400);
    expect(((await badId.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
    expect((await request('/v1/sessions/a%20b/runs', postJson({ agent: 'echo', input: 'x' }))).status).toBe(400);
    expect((await request('/v1/sessions/s/runs', postJson({ agent: 'echo' }))).status).toBe(400);
    expect((await request('/v1/sessions/s/runs', { ...postJson({}), body: '{' })).status).toBe(400);
    const unknown = await request('/v1/sessions/s/runs', postJson({ agent: 'nobody', input: 'x' }));
    expect(unknown.status).toBe(404);
    expect(await settled(request, 's')).toEqual({ id: 's', messages: [] });
    // Refused requests do not keep the session busy.
    expect((await request('/v1/sessions/s/runs', postJson({ agent: 'echo', input: 'x' }))).status).toBe(202);
  });

  it('forgets a session on DELETE', async () => {
    const { request } = app();
    await request('/v1/sessions/s/runs', postJson({ agent: 'echo', input: 'x' }));
    await settled(request, 's');
    const reset = await request('/v1/sessions/s', { method: 'DELETE' });
    expect(await reset.json()).toEqual({ id: 's', messages: [] });
    expect((await settled(request, 's')).messages).toEqual([]);
  });

  it('is behind the bearer token', async () => {
    const { request } = app({ tokens: ['t0ken'] });
    expect((await request('/v1/sessions/s')).status).toBe(401);
    expect((await request('/v1/sessions/s', { headers: { Authorization: 'Bearer t0ken' } })).status).toBe(200);
  });
});
