import { afterEach, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../src/server/index.js';
import { embeddedApp, parseSse, postJson, stepsAgent } from '../server-fixtures.js';

let server: ReturnType<typeof embeddedApp> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('runs API', () => {
  it('starts a run, waits for it with ?wait=true and reads it back', async () => {
    server = embeddedApp({ agents: { steps: stepsAgent({ answer: 'Finished.' }) } });
    const response = await server.request('/v1/agents/steps/runs?wait=true', postJson({ input: 'go' }));
    expect(response.status).toBe(200);
    const run = (await response.json()) as RunRecord;
    expect(run.status).toBe('done');
    expect(run.result?.output).toBe('Finished.');
    expect(run.result?.steps).toHaveLength(5);
    const again = (await (await server.request(`/v1/runs/${run.id}`)).json()) as RunRecord;
    expect(again).toMatchObject({ id: run.id, agent: 'steps', input: 'go', status: 'done', source: 'api' });
  });

  it('answers 202 with a queued run, then the run ends', async () => {
    server = embeddedApp({ agents: { steps: stepsAgent() } });
    const response = await server.request('/v1/agents/steps/runs', postJson({ input: 'go' }));
    expect(response.status).toBe(202);
    const run = (await response.json()) as RunRecord;
    expect(response.headers.get('location')).toBe(`/v1/runs/${run.id}`);
    const ended = await server.app.runs.wait(run.id);
    expect(ended?.status).toBe('done');
  });

  it('streams every event as SSE with sequence ids, ending after run_end', async () => {
    server = embeddedApp({ agents: { steps: stepsAgent() } });
    const run = (await (await server.request('/v1/agents/steps/runs', postJson({ input: 'go' }))).json()) as RunRecord;
    const response = await server.request(`/v1/runs/${run.id}/events`);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = parseSse(await response.text());
    expect(events[0].event).toBe('run_start');
    expect(events.at(-1)?.event).toBe('run_end');
    expect(events.map((e) => Number(e.id))).toEqual(events.map((_, i) => i + 1));
    expect(events.filter((e) => e.event === 'tool_end')).toHaveLength(4);
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ type: 'run_end', status: 'done', runId: run.id });
  });

  it('answers 404 for an unknown agent, run or route', async () => {
    server = embeddedApp({ agents: { steps: stepsAgent() } });
    const agent = await server.request('/v1/agents/nope/runs', postJson({ input: 'go' }));
    expect(agent.status).toBe(404);
    expect(((await agent.json()) as { error: { message: string } }).error.message).toContain('nope');
    expect((await server.request('/v1/runs/missing')).status).toBe(404);
    expect((await server.request('/v1/runs/missing/events')).status).toBe(404);
    expect((await server.request('/v1/runs/missing/cancel', { method: 'POST' })).status).toBe(404);
    expect((await server.request('/v1/elsewhere')).status).toBe(404);
  });

  it('cancels a running run: it ends aborted', async () => {
    server = embeddedApp({ agents: { slow: stepsAgent({ delayMs: 5000 }) } });
    const run = (await (await server.request('/v1/agents/slow/runs', postJson({ input: 'go' }))).json()) as RunRecord;
    await server.app.runs.changed(run.id, 500);
    const started = Date.now();
    const response = await server.request(`/v1/runs/${run.id}/cancel`, { method: 'POST' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as RunRecord).status).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('cancels a queued run before it starts, logging a run_end', async () => {
    server = embeddedApp({
      agents: { slow: stepsAgent({ delayMs: 5000 }) },
      limits: { maxConcurrentRuns: 1 },
    });
    const first = (await (await server.request('/v1/agents/slow/runs', postJson({ input: 'a' }))).json()) as RunRecord;
    const second = (await (await server.request('/v1/agents/slow/runs', postJson({ input: 'b' }))).json()) as RunRecord;
    expect((await server.app.runs.get(second.id))?.status).toBe('queued');
    const cancelled = (await (
      await server.request(`/v1/runs/${second.id}/cancel`, { method: 'POST' })
    ).json()) as RunRecord;
    expect(cancelled.status).toBe('aborted');
    const events = parseSse(await (await server.request(`/v1/runs/${second.id}/events`)).text());
    expect(events.map((e) => e.event)).toEqual(['run_end']);
    await server.request(`/v1/runs/${first.id}/cancel`, { method: 'POST' });
  });
});
