import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/index.js';
import { SqliteRunStore } from '../../src/server/stores/sqlite-run-store.js';
import { parseTrace } from '../../src/trace/index.js';
import { postJson, stepsAgent, tempDir } from '../server/server-fixtures.js';

// The page needs its bundle, as `npm run build` (the prepare script) makes it.
beforeAll(() => {
  execFileSync('npm', ['run', 'build:studio'], { cwd: join(import.meta.dirname, '..', '..'), stdio: 'ignore' });
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function app(options: { studio?: boolean; tokens?: string[] } = {}) {
  const dir = tempDir();
  const store = new SqliteRunStore({ path: join(dir.path, 'runs.db') });
  const created = createApp({
    agents: { steps: stepsAgent({ toolSteps: 2 }) },
    store,
    studio: options.studio,
    auth: { tokens: options.tokens },
  });
  cleanups.push(async () => {
    await created.runs.close({ timeoutMs: 1000 });
    await store.close();
    dir.cleanup();
  });
  return (path: string, init: RequestInit = {}) => created.fetch(new Request(`http://localhost${path}`, init));
}

describe('studio routes', () => {
  it('bundles the page script alone: no import, nothing from Node, zod or SQLite, and small', () => {
    const script = readFileSync(join(import.meta.dirname, '..', '..', 'dist', 'studio-assets', 'app.js'), 'utf8');
    // The client takes costOf from the trace index; everything else the index pulls in must fall away.
    expect(script).not.toMatch(/\bimport\s*["'(]|\bfrom\s*["']|\brequire\(/);
    expect(script).not.toMatch(/node:|better-sqlite3|ZodError/);
    expect(script).toContain('gpt-4o-mini');
    expect(script.length).toBeLessThan(60_000);
  });

  it('serves the page and the agent names only when the studio is on', async () => {
    const off = app();
    expect((await off('/studio')).status).toBe(404);
    expect((await off('/v1/agents')).status).toBe(404);
    const on = app({ studio: true });
    const page = await on('/studio');
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/studio/app.js">');
    // Offline: nothing is loaded from another origin.
    expect(html).not.toMatch(/https?:\/\//);
    expect(await (await on('/v1/agents')).json()).toEqual({ agents: ['steps'] });
  });

  it('keeps the page public and the API behind the bearer token', async () => {
    const request = app({ studio: true, tokens: ['s3cret'] });
    const page = await request('/studio');
    expect(await page.text()).not.toContain('s3cret');
    expect((await request('/v1/agents')).status).toBe(401);
    const ok = await request('/v1/agents', { headers: { Authorization: 'Bearer s3cret' } });
    expect(ok.status).toBe(200);
  });
});

describe('POST /v1/agents/:name/runs with history', () => {
  it('starts the run with the earlier turns, and refuses a malformed turn with 400 JSON', async () => {
    const request = app();
    const history = [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi' },
    ];
    const ran = (await (
      await request('/v1/agents/steps/runs?wait=true', postJson({ input: 'go', history }))
    ).json()) as { id: string; history?: unknown };
    expect(ran.history).toEqual(history);
    const trace = parseTrace(await (await request(`/v1/runs/${ran.id}/trace`)).text());
    const first = trace.find((e) => e.type === 'model_request');
    expect(first?.type === 'model_request' && first.messages.map((m) => m.content)).toEqual(
      expect.arrayContaining(['hello', 'hi', 'go']),
    );
    const bad = await request(
      '/v1/agents/steps/runs',
      postJson({ input: 'go', history: [{ role: 'tool', content: 'x' }] }),
    );
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
  });
});

describe('GET /v1/runs/:id/trace', () => {
  it('answers the run as JSONL, the lines runs export writes', async () => {
    const request = app();
    const started = (await (await request('/v1/agents/steps/runs?wait=true', postJson({ input: 'go' }))).json()) as {
      id: string;
    };
    const response = await request(`/v1/runs/${started.id}/trace`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    expect(response.headers.get('content-disposition')).toContain(`${started.id}.jsonl`);
    const events = parseTrace(await response.text());
    expect(events[0].type).toBe('run_start');
    expect(events.at(-1)?.type).toBe('run_end');
    expect(events.filter((e) => e.type === 'tool_end')).toHaveLength(2);
  });

  it('answers 404 JSON for an unknown run and 401 without the token', async () => {
    const request = app({ tokens: ['t'] });
    expect((await request('/v1/runs/nope/trace')).status).toBe(401);
    const missing = await request('/v1/runs/nope/trace', { headers: { Authorization: 'Bearer t' } });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });
});
