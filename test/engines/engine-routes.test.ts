// thinkflow's own run routes over runs a durable engine executes: a run started through POST
// /v1/agents/:name/runs runs on a real restate-server, its approval and its ask_user question are
// answered through POST /v1/runs/:id/approvals (which resolves Restate's awakeables), its events are in
// the store the worker records them in, and POST /v1/runs/:id/cancel is Restate's cancel.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Http2Server } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as restate from '@restatedev/restate-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restateAgent, restateClient } from '../../src/entries/restate.js';
import { createApp, engineRunRecorder, engineRuns, type RunRecord } from '../../src/entries/server.js';
import { memoryRunStore } from '../../src/entries/server-fetch.js';
import { eventually, freePort, type RestateServer, startRestateServer } from './engine-processes.js';
import { appClient, approverAgent } from './engine-routes-fixture.js';

let server: RestateServer;
let endpoint: Http2Server;
let dir: string;
const ran: string[] = [];
const store = memoryRunStore();
let app: ReturnType<typeof createApp>;

const { post, get, question } = appClient(() => app);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'engine-routes-'));
  server = await startRestateServer(join(dir, 'restate'));
  const recorder = engineRunRecorder(store);
  const port = await freePort();
  const handler = restate
    .endpoint()
    .bind(await restateAgent(approverAgent(ran), { onEvent: recorder.onEvent }))
    .http2Handler();
  endpoint = createServer(handler);
  await new Promise<void>((resolve) => endpoint.listen(port, '127.0.0.1', resolve));
  const registered = await fetch(`${server.admin}/deployments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ uri: `http://127.0.0.1:${port}`, force: true }),
  });
  expect(registered.ok).toBe(true);
  const client = restateClient({ ingress: server.ingress, admin: server.admin });
  app = createApp({ runs: engineRuns({ store, agents: ['approver'], client, pollMs: 50 }) });
}, 60_000);

afterAll(async () => {
  endpoint?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

describe('engineRuns on Restate, through the server routes', () => {
  it('an approval and a question are answered through POST /v1/runs/:id/approvals; events are recorded once', async () => {
    const started = await post('/v1/agents/approver/runs', { input: 'go' });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as RunRecord;

    const approval = await question(id, 'approval');
    expect(approval).toMatchObject({ tool: 'guarded', input: { label: 'g' } });
    expect(ran).toEqual([]);
    expect((await post(`/v1/runs/${id}/approvals`, { questionId: approval.id, approved: true })).status).toBe(200);

    const asked = await question(id, 'question');
    expect(asked.question).toBe('Which city?');
    expect((await post(`/v1/runs/${id}/approvals`, { answer: 'Paris' })).status).toBe(200);

    const ended = await eventually(async () => {
      const run = (await get(`/v1/runs/${id}`)) as RunRecord;
      return run.status === 'done' ? run : undefined;
    });
    expect(ended.result?.output).toBe('done Paris');
    expect(ran).toEqual(['g']);
    // Restate replayed the run from its start after each wait: the store still has each event once.
    const events = (await store.readEvents(id, 0)).map((e) => e.event);
    expect(events.filter((e) => e.type === 'run_start')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'tool_end').map((e) => (e.type === 'tool_end' ? e.tool : ''))).toEqual([
      'guarded',
      'ask_user',
    ]);
    expect(events.filter((e) => e.type === 'approval_response')).toHaveLength(2);
    expect(events.at(-1)?.type).toBe('run_end');
  }, 60_000);

  it('POST /v1/runs/:id/cancel cancels the invocation on Restate; the call waiting for approval never runs', async () => {
    ran.length = 0;
    const { id } = (await (await post('/v1/agents/approver/runs', { input: 'go' })).json()) as RunRecord;
    await question(id, 'approval');
    const cancelled = await post(`/v1/runs/${id}/cancel`, {});
    expect(cancelled.status).toBe(200);
    const run = await eventually(async () => {
      const r = (await get(`/v1/runs/${id}`)) as RunRecord;
      return r.status === 'aborted' ? r : undefined;
    });
    expect(run.status).toBe('aborted');
    expect(ran).toEqual([]);
  }, 60_000);

  it('an unknown agent is a 404, an answer to a run that waits on nothing a 409', async () => {
    expect((await post('/v1/agents/nobody/runs', { input: 'go' })).status).toBe(404);
    const runs = (await get('/v1/runs')) as { runs?: RunRecord[]; data?: RunRecord[] };
    const done = (runs.runs ?? runs.data ?? []).find((r) => r.status === 'done');
    expect(done).toBeDefined();
    expect((await post(`/v1/runs/${done?.id}/approvals`, { approved: true })).status).toBe(409);
  }, 30_000);
});
