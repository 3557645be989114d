import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunPage, RunRecord } from '../../../src/server/index.js';
import { embeddedApp, postJson, stepsAgent } from '../server-fixtures.js';

const auth = { authorization: 'Bearer secret' };

describe('GET /v1/runs', () => {
  let server: ReturnType<typeof embeddedApp>;
  const ids: string[] = [];
  beforeEach(async () => {
    server = embeddedApp({
      agents: { two: stepsAgent({ toolSteps: 2 }), one: stepsAgent({ toolSteps: 1 }) },
      tokens: ['secret'],
    });
    ids.length = 0;
    for (const agent of ['two', 'one', 'two']) {
      const response = await server.request(`/v1/agents/${agent}/runs?wait=true`, postJson({ input: 'go' }, auth));
      ids.push(((await response.json()) as RunRecord).id);
      // Distinct creation times, so the order is the creation order.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  });
  afterEach(async () => {
    await server.close();
  });

  const list = async (query = '') => {
    const response = await server.request(`/v1/runs${query}`, { headers: auth });
    return { status: response.status, body: (await response.json()) as RunPage };
  };

  it('lists runs newest first with status, agent, times, steps, tokens and cost', async () => {
    const { status, body } = await list();
    expect(status).toBe(200);
    expect(body.runs.map((r) => r.id)).toEqual([...ids].reverse());
    expect(body.next).toBeUndefined();
    const [newest] = body.runs;
    expect(newest).toMatchObject({ id: ids[2], agent: 'two', status: 'done', source: 'api', steps: 3 });
    expect(newest.createdAt).toBeLessThanOrEqual(newest.updatedAt);
    expect(newest.durationMs).toBeGreaterThanOrEqual(0);
    expect(newest.tokens).toBeTypeOf('number');
    expect(body.runs[1]).toMatchObject({ agent: 'one', steps: 2 });
  });

  it('filters by agent and status, and pages with a cursor', async () => {
    expect((await list('?agent=one')).body.runs.map((r) => r.id)).toEqual([ids[1]]);
    expect((await list('?status=failed,aborted')).body.runs).toEqual([]);
    expect((await list('?agent=two&status=done')).body.runs.map((r) => r.id)).toEqual([ids[2], ids[0]]);
    const first = await list('?limit=2');
    expect(first.body.runs.map((r) => r.id)).toEqual([ids[2], ids[1]]);
    const second = await list(`?limit=2&cursor=${encodeURIComponent(first.body.next ?? '')}`);
    expect(second.body).toEqual({ runs: [expect.objectContaining({ id: ids[0] })] });
  });

  it('answers 400 with a JSON error naming a bad parameter', async () => {
    for (const [query, names] of [
      ['?status=finished', 'status'],
      ['?limit=0', 'limit'],
      ['?limit=many', 'limit'],
      ['?cursor=nonsense', 'cursor'],
      ['?colour=red', 'colour'],
    ]) {
      const response = await server.request(`/v1/runs${query}`, { headers: auth });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: string; type: string; message: string } };
      expect(body.error).toMatchObject({ code: 'invalid_request', type: 'invalid_request_error' });
      expect(body.error.message).toContain(names);
    }
  });

  it('needs the same bearer token as the rest of the API', async () => {
    const response = await server.request('/v1/runs');
    expect(response.status).toBe(401);
  });
});
