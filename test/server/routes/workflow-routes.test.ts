import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type RunningServer, serve } from '../../../src/server/index.js';
import { parseSse, tempDir } from '../server-fixtures.js';

const CONFIG = new URL('../fixtures/workflows.config.ts', import.meta.url).pathname;
const dir = tempDir();
let server: RunningServer;

beforeAll(async () => {
  server = await serve({ config: await loadConfig(CONFIG), port: 0, dataDir: dir.path, log: () => {} });
});
afterAll(async () => {
  await server?.close();
  dir.cleanup();
});

/** A real HTTP call to the served app, as `token`'s principal. */
async function call(token: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the tests read answer fields freely.
  return { status: response.status, headers: response.headers, json: (await response.json()) as Record<string, any> };
}

describe('workflow routes', () => {
  it('starts, suspends, refuses an invalid payload (still suspended), resumes to done', async () => {
    const started = await call('tok-alice', '/v1/workflows/tally/runs?wait=true', { input: 'hello' });
    expect(started.status).toBe(200);
    expect(started.json).toMatchObject({ status: 'suspended', workflow: 'tally', owner: 'alice' });
    expect(started.json.suspended).toEqual([{ path: '1.review', stepId: 'review', payload: { n: 5 } }]);
    const id = started.json.id as string;

    const bad = await call('tok-alice', `/v1/runs/${id}/resume`, { step: 'review', payload: { factor: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/does not fit its schema/);
    expect((await call('tok-alice', `/v1/workflows/runs/${id}`)).json.status).toBe('suspended');

    const wrongStep = await call('tok-alice', `/v1/runs/${id}/resume`, { step: 'nope', payload: {} });
    expect(wrongStep.status).toBe(409);

    const done = await call('tok-alice', `/v1/runs/${id}/resume?wait=true`, { step: 'review', payload: { factor: 3 } });
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({ status: 'done', output: 'total 15' });
    expect((await call('tok-alice', `/v1/runs/${id}/resume`, { step: 'review', payload: { factor: 3 } })).status).toBe(
      409,
    );
  });

  it('answers 202 at once without wait, and 400 for an input the workflow refuses', async () => {
    const started = await call('tok-alice', '/v1/workflows/signup/runs', { input: 'ann' });
    expect([200, 202]).toContain(started.status);
    expect(started.headers.get('location')).toBe(`/v1/workflows/runs/${started.json.id}`);
    const id = started.json.id as string;
    const waiting = await call('tok-alice', `/v1/workflows/runs/${id}`);
    expect(waiting.json.suspended).toEqual([expect.objectContaining({ event: 'confirmed' })]);
    expect(
      (await call('tok-alice', `/v1/runs/${id}/resume`, { event: 'confirmed', payload: { email: 1 } })).status,
    ).toBe(400);
    const done = await call('tok-alice', `/v1/runs/${id}/resume?wait=true`, {
      event: 'confirmed',
      payload: { email: 'ann@example.com' },
    });
    expect(done.json).toMatchObject({ status: 'done', output: { email: 'ann@example.com' } });

    expect((await call('tok-alice', '/v1/workflows/signup/runs', { input: 42 })).status).toBe(400);
    expect((await call('tok-alice', '/v1/workflows/nope/runs', { input: 'x' })).status).toBe(404);
  });

  it('streams the workflow events as SSE, from Last-Event-ID on', async () => {
    const started = await call('tok-alice', '/v1/workflows/tally/runs?wait=true', { input: 'sse' });
    const id = started.json.id as string;
    const read = async (headers: Record<string, string> = {}) => {
      const response = await fetch(`${server.url}/v1/workflows/runs/${id}/events`, {
        headers: { authorization: 'Bearer tok-alice', ...headers },
      });
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      return parseSse(await response.text());
    };
    const first = await read();
    expect(first.map((e) => e.event)).toEqual([
      'workflow_start',
      'step_start',
      'step_end',
      'step_start',
      'step_suspended',
      'workflow_end',
    ]);
    await call('tok-alice', `/v1/runs/${id}/resume?wait=true`, { step: 'review', payload: { factor: 2 } });
    const rest = await read({ 'Last-Event-ID': first.at(-1)!.id! });
    expect(rest[0]).toMatchObject({ event: 'workflow_start', id: String(first.length + 1) });
    expect(JSON.parse(rest.at(-1)!.data)).toMatchObject({ type: 'workflow_end', status: 'done', output: 'total 6' });
    const bob = await fetch(`${server.url}/v1/workflows/runs/${id}/events`, {
      headers: { authorization: 'Bearer tok-bob' },
    });
    expect(bob.status).toBe(404);
  });

  it('forks a run from a step, reusing the earlier checkpoints', async () => {
    const first = await call('tok-alice', '/v1/workflows/tally/runs?wait=true', { input: 'abc' });
    const id = first.json.id as string;
    await call('tok-alice', `/v1/runs/${id}/resume?wait=true`, { step: 'review', payload: { factor: 2 } });
    const fork = await call('tok-alice', `/v1/runs/${id}/fork?wait=true`, { fromStep: 'report', input: 100 });
    expect(fork.json).toMatchObject({ status: 'done', output: 'total 100', forkedFrom: { runId: id }, owner: 'alice' });
    expect(fork.json.id).not.toBe(id);
    expect(fork.json.steps['0.count']).toMatchObject({ status: 'done', output: 3 });
    expect((await call('tok-alice', `/v1/runs/${id}/fork`, { fromStep: 'nowhere' })).status).toBe(404);
  });

  it('cancels a suspended run (then resume is a 409), refuses an ended one, and hides it from others', async () => {
    const started = await call('tok-alice', '/v1/workflows/tally/runs?wait=true', { input: 'abc' });
    const id = started.json.id as string;
    expect((await call('tok-bob', `/v1/workflows/runs/${id}/cancel`, {})).status).toBe(404);
    const cancelled = await call('tok-alice', `/v1/workflows/runs/${id}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.json).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
    expect((await call('tok-alice', `/v1/runs/${id}/resume`, { step: 'review', payload: { factor: 2 } })).status).toBe(
      409,
    );
    expect((await call('tok-alice', `/v1/workflows/runs/${id}/cancel`, {})).status).toBe(409);
    expect((await call('tok-alice', '/v1/workflows/runs/nope/cancel', {})).status).toBe(404);
  });

  it("lists the caller's runs newest first, by workflow and status, a page at a time", async () => {
    const a = await call('tok-alice', '/v1/workflows/tally/runs?wait=true', { input: 'one' });
    const b = await call('tok-alice', '/v1/workflows/tally/runs?wait=true', { input: 'three' });
    const bobs = await call('tok-bob', '/v1/workflows/tally/runs?wait=true', { input: 'bob' });
    const mine = await call('tok-alice', '/v1/workflows/runs?workflow=tally&status=suspended&limit=500');
    expect(mine.status).toBe(200);
    const ids = mine.json.data.map((r: { id: string }) => r.id);
    expect(ids.indexOf(b.json.id)).toBeLessThan(ids.indexOf(a.json.id));
    expect(ids).not.toContain(bobs.json.id);
    expect(mine.json.data[0]).toMatchObject({ workflow: 'tally', status: 'suspended', owner: 'alice' });
    expect(mine.json.data[0].steps).toBeUndefined();
    const page = await call('tok-alice', '/v1/workflows/runs?workflow=tally&limit=1');
    expect(page.json.data).toHaveLength(1);
    const next = await call('tok-alice', `/v1/workflows/runs?workflow=tally&limit=1&before=${page.json.next}`);
    expect(next.json.data[0].id).not.toBe(page.json.data[0].id);
    expect(
      (await call('tok-bob', '/v1/workflows/runs?workflow=tally')).json.data.map((r: { id: string }) => r.id),
    ).toEqual([bobs.json.id]);
    expect((await call('tok-alice', '/v1/workflows/runs?workflow=nope')).json.data).toEqual([]);
    expect((await call('tok-alice', '/v1/workflows/runs?status=sleeping')).status).toBe(400);
  });

  it("hides one principal's run from another (404 on read, resume and fork)", async () => {
    const mine = await call('tok-alice', '/v1/workflows/tally/runs?wait=true', { input: 'secret' });
    const id = mine.json.id as string;
    expect((await call('tok-bob', `/v1/workflows/runs/${id}`)).status).toBe(404);
    expect((await call('tok-bob', `/v1/runs/${id}/resume`, { step: 'review', payload: { factor: 1 } })).status).toBe(
      404,
    );
    expect((await call('tok-bob', `/v1/runs/${id}/fork`, { fromStep: 'report' })).status).toBe(404);
    expect((await call('tok-alice', `/v1/workflows/runs/${id}`)).json.status).toBe('suspended');
    const anonymous = await fetch(`${server.url}/v1/workflows/runs/${id}`);
    expect(anonymous.status).toBe(401);
  });

  it('returns the same run for a retried Idempotency-Key, and refuses the key for another body', async () => {
    const key = { 'Idempotency-Key': `wf-${Date.now()}` };
    const [a, b] = await Promise.all([
      call('tok-alice', '/v1/workflows/tally/runs', { input: 'once' }, key),
      call('tok-alice', '/v1/workflows/tally/runs', { input: 'once' }, key),
    ]);
    expect(a.json.id).toBe(b.json.id);
    const again = await call('tok-alice', '/v1/workflows/tally/runs', { input: 'once' }, key);
    expect(again.json.id).toBe(a.json.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await call('tok-alice', '/v1/workflows/tally/runs', { input: 'other' }, key)).status).toBe(422);
    // Another principal's key space is their own.
    const bobs = await call('tok-bob', '/v1/workflows/tally/runs', { input: 'once' }, key);
    expect(bobs.json.id).not.toBe(a.json.id);
  });

  it('refuses a foreign Origin and a non-JSON body like the agent routes', async () => {
    const foreign = await fetch(`${server.url}/v1/workflows/tally/runs`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer tok-alice',
        'content-type': 'application/json',
        origin: 'https://evil.example',
      },
      body: '{"input":"x"}',
    });
    expect(foreign.status).toBe(403);
    const text = await fetch(`${server.url}/v1/workflows/tally/runs`, {
      method: 'POST',
      headers: { authorization: 'Bearer tok-alice', 'content-type': 'text/plain' },
      body: '{"input":"x"}',
    });
    expect(text.status).toBe(415);
  });
});

describe('one run resource: /v1/runs/:id for agent and workflow runs', () => {
  it('reads, streams and cancels a workflow run at /v1/runs/:id, as at its /v1/workflows/runs alias, with kind', async () => {
    const id = (await call('tok-alice', '/v1/workflows/tally/runs?wait=true', { input: 'one' })).json.id as string;
    const read = await call('tok-alice', `/v1/runs/${id}`);
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({ id, kind: 'workflow', workflow: 'tally', status: 'suspended' });
    expect((await call('tok-alice', `/v1/workflows/runs/${id}`)).json).toEqual(read.json);

    const stream = await fetch(`${server.url}/v1/runs/${id}/events`, {
      headers: { authorization: 'Bearer tok-alice' },
    });
    const types = parseSse(await stream.text()).map((event) => event.event);
    expect(types[0]).toBe('workflow_start');
    expect(types.at(-1)).toBe('workflow_end');

    // Another principal's run is not found at either path, with the same answer as an unknown id.
    const hidden = await call('tok-bob', `/v1/runs/${id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.json.error.message).toBe(`No run with id "${id}".`);
    expect((await call('tok-bob', `/v1/runs/${id}/cancel`, {})).status).toBe(404);
    expect(
      (await fetch(`${server.url}/v1/runs/${id}/events`, { headers: { authorization: 'Bearer tok-bob' } })).status,
    ).toBe(404);

    const cancelled = await call('tok-alice', `/v1/runs/${id}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.json).toMatchObject({ id, kind: 'workflow', status: 'cancelled' });
  });

  it('answers an agent run at /v1/runs/:id with kind agent, and an unknown id with 404', async () => {
    const started = await call('tok-alice', '/v1/agents/helper/runs?wait=true', { input: 'hi' });
    expect(started.status).toBe(200);
    const read = await call('tok-alice', `/v1/runs/${started.json.id}`);
    expect(read.json).toMatchObject({ id: started.json.id, kind: 'agent', agent: 'helper', status: 'done' });
    expect((await call('tok-alice', '/v1/runs/nope')).status).toBe(404);
    expect((await call('tok-alice', '/v1/runs/nope/cancel', {})).status).toBe(404);
    expect(
      (await fetch(`${server.url}/v1/runs/nope/events`, { headers: { authorization: 'Bearer tok-alice' } })).status,
    ).toBe(404);
  });
});
