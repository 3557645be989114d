import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { SqliteSessionStore } from '../../../src/memory/node.js';
import { createApp, type RunRecord, SqliteRunStore, tokenPrincipal } from '../../../src/server/index.js';
import { defineTool } from '../../../src/tools/index.js';
import { callReply, postJson, tempDir } from '../server-fixtures.js';
import { eventually } from '../spawn-server.js';

const SECRET = 'my-diagnosis-is-X';
const actions: string[] = [];

/** Answers with the whole transcript it was sent, so a history that leaked between callers shows. */
const echo = () =>
  new Agent({ model: scriptedModel((request) => `seen: ${request.messages.map((m) => m.content).join(' | ')}`) });

/** Calls a needsApproval tool, so its run waits for an answer. */
const gated = () =>
  new Agent({
    model: scriptedModel((request) =>
      request.messages.some((m) => m.role === 'tool') ? 'acted' : callReply('c1', 'act', { on: 'x' }),
    ),
    tools: [
      defineTool({
        name: 'act',
        description: 'Does something that needs approval.',
        input: z.object({ on: z.string() }),
        needsApproval: true,
        run: ({ on }) => {
          actions.push(on);
          return 'done';
        },
      }),
    ],
  });

const dir = tempDir();
const store = new SqliteRunStore({ path: join(dir.path, 'runs.db') });
const sessions = new SqliteSessionStore({ file: join(dir.path, 'sessions.db') });
const app = createApp({
  agents: { echo, gated },
  store,
  sessions,
  studio: true,
  hooks: { ping: { agent: 'echo' } },
  auth: {
    tokens: [
      { token: 'tok-alice', principal: 'alice' },
      { token: 'tok-bob', principal: 'bob' },
      { token: 'tok-root', principal: 'ops', admin: true },
      'tok-plain',
    ],
  },
});
const as = (token: string | undefined, path: string, init: RequestInit = {}) =>
  app.fetch(
    new Request(`http://localhost${path}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    }),
  );

let waitingRun: RunRecord;
let doneRun: RunRecord;

beforeAll(async () => {
  waitingRun = (await (
    await as('tok-alice', '/v1/agents/gated/runs', postJson({ input: `${SECRET} gated` }))
  ).json()) as RunRecord;
  doneRun = (await (
    await as('tok-alice', '/v1/agents/echo/runs?wait=true', postJson({ input: `${SECRET} done` }))
  ).json()) as RunRecord;
  const turn = await as('tok-alice', '/v1/sessions/shared/runs', postJson({ agent: 'echo', input: SECRET }));
  expect(turn.status).toBe(202);
  await eventually(async () => ((await app.runs.get(waitingRun.id))?.status === 'waiting' ? true : undefined), 5000);
  await eventually(async () => {
    const session = (await (await as('tok-alice', '/v1/sessions/shared')).json()) as { messages: unknown[] };
    return session.messages.length === 2 ? true : undefined;
  }, 5000);
});

afterAll(async () => {
  await app.runs.close({ timeoutMs: 1000 });
  await store.close();
  await sessions.close();
  dir.cleanup();
});

/** A request for each registered route, its parameters filled with alice's run, session, an agent or a hook. */
function routeRequests(runId: string): { method: string; path: string; init: RequestInit }[] {
  const seen = new Set<string>();
  const out: { method: string; path: string; init: RequestInit }[] = [];
  for (const route of app.hono.routes) {
    if (route.method === 'ALL' || route.path.includes('*') || seen.has(`${route.method} ${route.path}`)) continue;
    seen.add(`${route.method} ${route.path}`);
    const path = route.path
      .replace(/^\/v1\/sessions\/:id/, '/v1/sessions/shared')
      .replace(/^\/v1\/hooks\/:name/, '/v1/hooks/ping')
      .replace(/:id\b/g, runId)
      .replace(/:name\b/g, 'echo');
    const body =
      route.method === 'GET' || route.method === 'HEAD' || route.method === 'DELETE'
        ? undefined
        : path === '/v1/chat/completions'
          ? JSON.stringify({ model: 'echo', messages: [{ role: 'user', content: 'hello' }] })
          : path.startsWith('/v1/sessions/')
            ? JSON.stringify({ agent: 'echo', input: 'hello' })
            : path.endsWith('/approvals')
              ? JSON.stringify({ approved: true })
              : path.endsWith('/replay')
                ? ''
                : JSON.stringify({ input: 'hello', wait: true });
    out.push({
      method: route.method,
      path,
      init: {
        method: route.method,
        body,
        headers:
          body === undefined
            ? {}
            : { 'content-type': path.endsWith('/replay') ? 'application/x-ndjson' : 'application/json' },
      },
    });
  }
  return out;
}

describe('principals: a caller sees only their own runs and sessions', () => {
  it('records the owner of each run', async () => {
    expect((await app.runs.get(waitingRun.id))?.owner).toBe('alice');
    expect(doneRun.owner).toBe('alice');
  });

  it('walks every registered route as bob: nothing of alice leaks, nothing of hers is acted on', async () => {
    const requests = routeRequests(waitingRun.id);
    // The routes this test knows of are all there (a route added later is walked too).
    const names = requests.map((r) => `${r.method} ${r.path}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'GET /v1/runs',
        `GET /v1/runs/${waitingRun.id}`,
        `GET /v1/runs/${waitingRun.id}/events`,
        `GET /v1/runs/${waitingRun.id}/trace`,
        `POST /v1/runs/${waitingRun.id}/cancel`,
        `POST /v1/runs/${waitingRun.id}/approvals`,
        'GET /v1/sessions/shared',
        'POST /v1/sessions/shared/runs',
        'POST /v1/chat/completions',
        'POST /v1/hooks/ping',
      ]),
    );
    for (const { method, path, init } of requests) {
      const response = await as('tok-bob', path, init);
      const text = await response.text();
      expect(text, `${method} ${path}`).not.toContain(SECRET);
      expect(text, `${method} ${path}`).not.toContain(doneRun.id);
      // A 404 names the id asked for; no other answer may name alice's run.
      if (path.includes(waitingRun.id)) expect(response.status, `${method} ${path}`).toBe(404);
      else expect(text, `${method} ${path}`).not.toContain(waitingRun.id);
    }
    // Bob's approval and cancel did nothing: alice's run still waits, its tool has not run.
    expect((await app.runs.get(waitingRun.id))?.status).toBe('waiting');
    expect(actions).toEqual([]);
    // Without a token, every /v1 route answers 401.
    for (const { method, path, init } of requests.filter((r) => r.path.startsWith('/v1/'))) {
      expect((await as(undefined, path, init)).status, `${method} ${path}`).toBe(401);
    }
  });

  it("answers 404 (not 403) for another caller's run on every run route, including done runs", async () => {
    for (const suffix of ['', '/events', '/trace']) {
      const response = await as('tok-bob', `/v1/runs/${doneRun.id}${suffix}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: expect.objectContaining({ code: 'not_found' }) });
    }
  });

  it('lists only the caller’s own runs; an admin lists all, with their owners', async () => {
    const list = async (token: string, query = '') =>
      ((await (await as(token, `/v1/runs${query}`)).json()) as { runs: { id: string; owner?: string }[] }).runs;
    const alice = await list('tok-alice');
    expect(alice.map((r) => r.id)).toEqual(expect.arrayContaining([waitingRun.id, doneRun.id]));
    expect(alice.every((r) => r.owner === 'alice')).toBe(true);
    const bob = await list('tok-bob');
    expect(bob.every((r) => r.owner === 'bob')).toBe(true);
    const root = await list('tok-root');
    expect(root.map((r) => r.id)).toEqual(expect.arrayContaining([waitingRun.id, doneRun.id]));
    expect(new Set(root.map((r) => r.owner))).toEqual(new Set(['alice', 'bob']));
    // An admin filters by owner; anyone else asking for another owner still gets only their own.
    expect(new Set((await list('tok-root', '?owner=alice')).map((r) => r.owner))).toEqual(new Set(['alice']));
    expect(new Set((await list('tok-bob', '?owner=alice')).map((r) => r.owner))).toEqual(new Set(['bob']));
  });

  it("keeps sessions per principal: bob's turn on alice's session id neither reads nor joins hers", async () => {
    const bobs = (await (await as('tok-bob', '/v1/sessions/shared')).json()) as { messages: { content: string }[] };
    expect(JSON.stringify(bobs)).not.toContain(SECRET);
    const alices = (await (await as('tok-alice', '/v1/sessions/shared')).json()) as {
      messages: { role: string; content: string }[];
    };
    expect(alices.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(alices.messages[0].content).toBe(SECRET);
    // An admin reads another principal's session by naming its owner.
    const root = await as('tok-root', '/v1/sessions/shared?owner=alice');
    expect(JSON.stringify(await root.json())).toContain(SECRET);
    // A caller who is not an admin cannot.
    expect(JSON.stringify(await (await as('tok-bob', '/v1/sessions/shared?owner=alice')).json())).not.toContain(SECRET);
  });

  it('lets an admin read, and approve, any run', async () => {
    expect((await as('tok-root', `/v1/runs/${doneRun.id}`)).status).toBe(200);
    expect((await as('tok-root', `/v1/runs/${doneRun.id}/trace`)).status).toBe(200);
    const approved = await as('tok-root', `/v1/runs/${waitingRun.id}/approvals`, postJson({ approved: true }));
    expect(approved.status).toBe(200);
    expect((await app.runs.wait(waitingRun.id))?.status).toBe('done');
    expect(actions).toEqual(['x']);
  });

  it('names a plain-string token by a hash of it, never the token itself', async () => {
    const run = (await (
      await as('tok-plain', '/v1/agents/echo/runs?wait=true', postJson({ input: 'hi' }))
    ).json()) as RunRecord;
    expect(run.owner).toBe(tokenPrincipal('tok-plain'));
    expect(run.owner).toMatch(/^token:[0-9a-f]{16}$/);
    expect(run.owner).not.toContain('tok-plain');
    expect((await as('tok-bob', `/v1/runs/${run.id}`)).status).toBe(404);
  });
});

describe('auth.resolvePrincipal', () => {
  it("names callers from the application's own auth, and answers 401 when it returns undefined", async () => {
    const local = tempDir();
    const own = new SqliteRunStore({ path: join(local.path, 'runs.db') });
    const hooked = createApp({
      agents: { echo },
      store: own,
      auth: {
        resolvePrincipal: (request) => {
          const user = request.headers.get('x-user');
          return user === 'root' ? { principal: 'root', admin: true } : (user ?? undefined);
        },
      },
    });
    const call = (user: string | undefined, path: string, init: RequestInit = {}) =>
      hooked.fetch(
        new Request(`http://localhost${path}`, {
          ...init,
          headers: {
            'content-type': 'application/json',
            ...(init.headers as Record<string, string>),
            ...(user ? { 'x-user': user } : {}),
          },
        }),
      );
    try {
      expect((await call(undefined, '/v1/runs')).status).toBe(401);
      const started = (await (
        await call('carol', '/v1/agents/echo/runs?wait=true', {
          method: 'POST',
          body: '{"input":"hi"}',
          headers: { 'content-type': 'application/json' },
        })
      ).json()) as RunRecord;
      expect(started.owner).toBe('carol');
      expect((await call('dave', `/v1/runs/${started.id}`)).status).toBe(404);
      expect((await call('carol', `/v1/runs/${started.id}`)).status).toBe(200);
      expect((await call('root', `/v1/runs/${started.id}`)).status).toBe(200);
    } finally {
      await hooked.runs.close({ timeoutMs: 1000 });
      await own.close();
      local.cleanup();
    }
  });
});

describe('auth.tokens in the config', () => {
  it('refuses, by position, an entry that is not a token or lacks a principal, and a token given two principals', () => {
    const make = (tokens: unknown[]) => () => createApp({ agents: { echo }, store, auth: { tokens: tokens as never } });
    expect(make([{ token: 'a' }])).toThrow(/auth\.tokens\[0\].*principal/);
    expect(make(['ok', 42])).toThrow(/auth\.tokens\[1\]/);
    expect(make(['same', { token: 'same', principal: 'x' }])).toThrow(
      /auth\.tokens\[1\] gives a token listed before it to "x", but it already names "token:[0-9a-f]{16}"/,
    );
    expect(
      make([
        { token: 'same', principal: 'x' },
        { token: 'same', principal: 'x', admin: true },
      ]),
    ).toThrow(/to "x" \(admin\), but it already names "x"/);
  });

  it('counts the same token naming the same caller once, from any number of entries', async () => {
    const app = createApp({
      agents: { echo },
      store,
      auth: { tokens: ['same', 'same', { token: 'own', principal: 'x' }, { token: 'own', principal: 'x' }] },
    });
    try {
      for (const token of ['same', 'own', 'nope']) {
        const answer = await app.fetch(
          new Request('http://localhost/v1/runs', { headers: { authorization: `Bearer ${token}` } }),
        );
        expect(answer.status).toBe(token === 'nope' ? 401 : 200);
      }
    } finally {
      await app.runs.close({ timeoutMs: 1000 });
    }
  });
});
