import { afterEach, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../src/server/index.js';
import { embeddedApp, parseSse, postJson, stepsAgent } from '../server-fixtures.js';

let server: ReturnType<typeof embeddedApp> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Reads SSE blocks from a live response until `count` events arrived, then drops the connection. */
async function readSome(response: Response, count: number, abort: AbortController) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (parseSse(text).filter((e) => e.id).length < count || !text.endsWith('\n\n')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  abort.abort();
  await reader.cancel().catch(() => {});
  return parseSse(text).filter((e) => e.id);
}

describe('SSE events', () => {
  it('replays from Last-Event-ID after the run ended', async () => {
    server = embeddedApp({ agents: { steps: stepsAgent() } });
    const run = (await (
      await server.request('/v1/agents/steps/runs?wait=true', postJson({ input: 'go' }))
    ).json()) as RunRecord;
    const all = parseSse(await (await server.request(`/v1/runs/${run.id}/events`)).text());
    const rest = parseSse(
      await (await server.request(`/v1/runs/${run.id}/events`, { headers: { 'Last-Event-ID': '3' } })).text(),
    );
    expect(rest.map((e) => e.id)).toEqual(all.slice(3).map((e) => e.id));
    expect(rest.map((e) => e.data)).toEqual(all.slice(3).map((e) => e.data));
  });

  it('lets a client that drops mid-run reconnect with Last-Event-ID and miss nothing', async () => {
    server = embeddedApp({ agents: { steps: stepsAgent({ delayMs: 40 }) } });
    const run = (await (await server.request('/v1/agents/steps/runs', postJson({ input: 'go' }))).json()) as RunRecord;
    const abort = new AbortController();
    const live = await server.request(`/v1/runs/${run.id}/events`, { signal: abort.signal });
    const first = await readSome(live, 5, abort);
    expect((await server.app.runs.get(run.id))?.status).not.toBe('done');

    const last = first.at(-1)!.id!;
    const resumed = parseSse(
      await (await server.request(`/v1/runs/${run.id}/events`, { headers: { 'Last-Event-ID': last } })).text(),
    );
    const ids = [...first, ...resumed].map((e) => Number(e.id));
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    expect(resumed.at(-1)?.event).toBe('run_end');
    const stored = await server.app.runs.events(run.id, 0);
    expect(ids).toHaveLength(stored.length);
  });

  it('also accepts ?after= for clients that cannot set headers', async () => {
    server = embeddedApp({ agents: { steps: stepsAgent() } });
    const run = (await (
      await server.request('/v1/agents/steps/runs?wait=true', postJson({ input: 'go' }))
    ).json()) as RunRecord;
    const events = parseSse(await (await server.request(`/v1/runs/${run.id}/events?after=10`)).text());
    expect(Number(events[0].id)).toBe(11);
  });
});
