// thinkflow's own run routes over runs on DBOS: a run started through POST /v1/agents/:name/runs is
// enqueued on the agent's DBOS queue, its approval and its ask_user question are answered through POST
// /v1/runs/:id/approvals (DBOS send on the wait's topic), and POST /v1/runs/:id/cancel cancels the workflow.
import { DBOS, DBOSClient } from '@dbos-inc/dbos-sdk';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbosAgent, dbosClient } from '../../src/entries/dbos.js';
import { createApp, engineRunRecorder, engineRuns, type RunRecord } from '../../src/entries/server.js';
import { memoryRunStore } from '../../src/entries/server-fetch.js';
import { TEST_PG } from '../server/pg-fixtures.js';
import { eventually } from './engine-processes.js';
import { appClient, approverAgent } from './engine-routes-fixture.js';

const database = `thinkflow_dbos_routes_${process.pid}_${Date.now()}`;
const databaseUrl = Object.assign(new URL(TEST_PG), { pathname: `/${database}` }).toString();
const ran: string[] = [];
const store = memoryRunStore();
let app: ReturnType<typeof createApp>;
let client: DBOSClient;

async function admin(sql: string): Promise<void> {
  const db = new pg.Client({ connectionString: TEST_PG });
  await db.connect();
  try {
    await db.query(sql);
  } finally {
    await db.end();
  }
}

const { post, get, question } = appClient(() => app);

beforeAll(async () => {
  await admin(`CREATE DATABASE ${database}`);
  const recorder = engineRunRecorder(store);
  const approver = dbosAgent(approverAgent(ran), { onEvent: recorder.onEvent });
  DBOS.setConfig({ name: 'thinkflow-routes', systemDatabaseUrl: databaseUrl, logLevel: 'warn' });
  await DBOS.launch();
  await approver.launch();
  client = await DBOSClient.create({ systemDatabaseUrl: databaseUrl, applicationName: 'thinkflow-routes' });
  app = createApp({ runs: engineRuns({ store, agents: ['approver'], client: dbosClient(client), pollMs: 50 }) });
}, 60_000);

afterAll(async () => {
  await client?.destroy();
  await DBOS.shutdown();
  await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
}, 30_000);

describe('engineRuns on DBOS, through the server routes', () => {
  it('an approval and a question are answered through POST /v1/runs/:id/approvals; the call runs once', async () => {
    const started = await post('/v1/agents/approver/runs', { input: 'go' });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as RunRecord;
    const approval = await question(id, 'approval');
    expect(ran).toEqual([]);
    expect((await post(`/v1/runs/${id}/approvals`, { questionId: approval.id, approved: true })).status).toBe(200);
    await question(id, 'question');
    expect((await post(`/v1/runs/${id}/approvals`, { answer: 'Paris' })).status).toBe(200);
    const ended = await eventually(async () => {
      const run = (await get(`/v1/runs/${id}`)) as RunRecord;
      return run.status === 'done' ? run : undefined;
    });
    expect(ended.result?.output).toBe('done Paris');
    expect(ran).toEqual(['g']);
    const events = (await store.readEvents(id, 0)).map((e) => e.event);
    expect(events.filter((e) => e.type === 'run_start')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'tool_end')).toHaveLength(2);
  }, 60_000);

  it('POST /v1/runs/:id/cancel cancels the workflow; the call waiting for approval never runs', async () => {
    ran.length = 0;
    const { id } = (await (await post('/v1/agents/approver/runs', { input: 'go' })).json()) as RunRecord;
    await question(id, 'approval');
    expect((await post(`/v1/runs/${id}/cancel`, {})).status).toBe(200);
    await eventually(async () => ((await get(`/v1/runs/${id}`)) as RunRecord).status === 'aborted' || undefined);
    expect(ran).toEqual([]);
  }, 60_000);
});
