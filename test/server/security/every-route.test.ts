// Walks every route the app registers (hono's `app.routes`) and proves the security middleware stands in
// front of each: a route added later cannot forget the checks, because this list is read, not written.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SqliteSessionStore } from '../../../src/memory/node.js';
import {
  createApp,
  SqliteEvalStore,
  SqliteRunStore,
  type ThinkflowApp,
  workflowRuns,
} from '../../../src/server/index.js';
import { createStep, createWorkflow, memoryWorkflowStore } from '../../../src/workflow/index.js';
import { stepsAgent, tempDir } from '../server-fixtures.js';

let app: ThinkflowApp;
let store: SqliteRunStore;
let sessions: SqliteSessionStore;
let evals: SqliteEvalStore;
let dir: ReturnType<typeof tempDir>;

beforeAll(() => {
  dir = tempDir();
  store = new SqliteRunStore({ path: join(dir.path, 'runs.db') });
  sessions = new SqliteSessionStore({ dataDir: dir.path });
  evals = new SqliteEvalStore({ path: join(dir.path, 'runs.db') });
  // Every optional surface on, and no token: the `thinkflow studio --no-auth` case, the most exposed.
  app = createApp({
    agents: { steps: stepsAgent({ toolSteps: 1 }) },
    store,
    studio: true,
    sessions,
    // The scores and dataset routes.
    evals,
    hooks: { steps: { agent: 'steps' } },
    // The workflow routes too, with a workflow named as the walk fills `:name` in.
    workflows: workflowRuns({
      workflows: {
        steps: createWorkflow({ id: 'steps', input: z.unknown(), output: z.unknown() })
          .then(createStep({ id: 'echo', input: z.unknown(), output: z.unknown(), run: (x) => x }))
          .commit(),
      },
      store: memoryWorkflowStore(),
      claims: store,
    }),
  });
});
afterAll(async () => {
  await app.runs.close({ timeoutMs: 1000 });
  await store.close();
  await sessions.close();
  await evals.close();
  dir.cleanup();
});

/** Each route and method the app answers, with its parameters filled in (`:name` → steps). */
function routes(): { method: string; path: string; pattern: string }[] {
  const seen = new Map<string, { method: string; path: string; pattern: string }>();
  for (const route of app.hono.routes) {
    // `app.use` middleware is registered as ALL on a wildcard; a real `app.all` route is walked as POST.
    if (route.path.includes('*')) continue;
    const method = route.method === 'ALL' ? 'POST' : route.method;
    const path = route.path.replace(/:[^/]+/g, 'steps');
    seen.set(`${method} ${path}`, { method, path, pattern: route.path });
  }
  return [...seen.values()];
}

/** The ids of the stored runs (the well-formed requests above may start some: a hook takes `{}`). */
const storedRuns = async () => (await app.runs.list({ limit: 500 })).runs.map((run) => run.id).sort();
let runsBefore: string[] = [];

const CHANGES = (method: string) => !['GET', 'HEAD', 'OPTIONS'].includes(method);
const json = { 'content-type': 'application/json' };

function send(method: string, url: string, init: { headers?: Record<string, string>; body?: BodyInit } = {}) {
  const body = CHANGES(method) ? (init.body ?? '{}') : undefined;
  const headers = CHANGES(method) && init.body === undefined ? { ...json, ...init.headers } : init.headers;
  return app.fetch(new Request(url, { method, headers, body }));
}

async function expectRefused(response: Response, status: number, code: string, what: string) {
  expect(response.status, what).toBe(status);
  expect(((await response.json()) as { error: { code: string } }).error.code, what).toBe(code);
}

describe('every registered route is behind the security middleware', () => {
  it('has the routes this walk is about (so an empty walk cannot pass)', () => {
    const names = routes().map((r) => `${r.method} ${r.pattern}`);
    for (const expected of [
      'GET /health',
      'POST /v1/agents/:name/runs',
      'GET /v1/runs',
      'POST /v1/runs/:id/approvals',
      'POST /v1/chat/completions',
      'POST /v1/hooks/:name',
      'POST /v1/sessions/:id/runs',
      'POST /v1/agents/:name/replay',
      'GET /studio',
      'GET /v1/workflows',
      'GET /v1/workflows/:name',
      'POST /v1/workflows/:name/runs',
      'POST /v1/runs/:id/resume',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it('answers a well-formed local request, so the refusals below are the checks and not the route', async () => {
    for (const { method, path } of routes()) {
      const own = await send(method, `http://localhost${path}`, { headers: { origin: 'http://localhost' } });
      expect([403, 415], `${method} ${path}`).not.toContain(own.status);
      await own.body?.cancel();
    }
  });

  it('tells every answer not to be framed or sniffed', async () => {
    for (const { method, path } of routes()) {
      const response = await send(method, `http://localhost${path}`);
      expect(response.headers.get('x-frame-options'), `${method} ${path}`).toBe('DENY');
      expect(response.headers.get('content-security-policy'), `${method} ${path}`).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-content-type-options'), `${method} ${path}`).toBe('nosniff');
      expect(response.headers.get('access-control-allow-origin'), `${method} ${path}`).toBeNull();
      await response.body?.cancel();
    }
    runsBefore = await storedRuns();
  });

  it('refuses a Host that is not a loopback or configured name (DNS rebinding), 403 JSON', async () => {
    for (const { method, path } of routes()) {
      for (const url of [`http://rebind.test${path}`, `http://127.0.0.1.nip.io:8787${path}`]) {
        await expectRefused(await send(method, url), 403, 'forbidden', `${method} ${url}`);
      }
      // The Host header of a request whose URL (an absolute-form target) names localhost.
      const header = await send(method, `http://localhost${path}`, { headers: { host: 'rebind.test' } });
      await expectRefused(header, 403, 'forbidden', `${method} ${path} with Host: rebind.test`);
    }
  });

  it('refuses a state-changing request from a foreign Origin, null included, 403 JSON', async () => {
    const changing = routes().filter((r) => CHANGES(r.method));
    expect(changing.length).toBeGreaterThanOrEqual(8);
    for (const { method, path } of changing) {
      for (const origin of ['http://attacker.test', 'null', 'http://localhost:9999']) {
        const response = await send(method, `http://localhost${path}`, { headers: { origin } });
        await expectRefused(response, 403, 'forbidden', `${method} ${path} from ${origin}`);
      }
    }
  });

  it('refuses a body a page can send without asking (text/plain, a form, no type), 415 JSON', async () => {
    for (const { method, path } of routes().filter((r) => CHANGES(r.method))) {
      const bodies: { headers?: Record<string, string>; body: BodyInit; name: string }[] = [
        { name: 'text/plain', body: '{"input":"x","questionId":"q","approved":true}' },
        { name: 'form', body: new URLSearchParams({ '{"input":"x"}': '' }) },
        { name: 'multipart', body: new FormData() },
        // As a browser sends a Blob: no Content-Type, a Content-Length (in process, set by hand).
        { name: 'no type', body: new Blob(['{"input":"x"}']), headers: { 'content-length': '13' } },
      ];
      for (const { name, body, headers } of bodies) {
        const response = await send(method, `http://localhost${path}`, { body, headers });
        await expectRefused(response, 415, 'unsupported_media_type', `${method} ${path} with ${name}`);
      }
    }
  });

  it('stored no run from any refused request', async () => {
    expect(await storedRuns()).toEqual(runsBefore);
  });
});
