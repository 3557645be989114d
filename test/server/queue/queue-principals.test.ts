import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createApp,
  createQueueRuns,
  createRunWorker,
  PostgresRunStore,
  type RunRecord,
  type RunWorker,
  SqliteRunStore,
} from '../../../src/server/index.js';
import { TEST_PG, TEST_REDIS, uniqueName } from '../pg-fixtures.js';
import { postJson, stepsAgent, tempDir } from '../server-fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const auth = {
  tokens: [
    { token: 'tok-a', principal: 'alice' },
    { token: 'tok-b', principal: 'bob' },
  ],
};

/** Two API servers and a worker sharing only PostgreSQL and Redis, each with its own store connection. */
async function cluster(counter: { calls: number }) {
  const schema = uniqueName('tf_principals');
  const location = { redisUrl: TEST_REDIS, queueName: uniqueName('runs'), prefix: uniqueName('tf') };
  const stores: PostgresRunStore[] = [];
  const store = () => {
    const opened = new PostgresRunStore({ connectionString: TEST_PG, schema });
    stores.push(opened);
    return opened;
  };
  const first = store();
  await first.init();
  const agents = { steps: stepsAgent({ toolSteps: 1, counter }) };
  const apis = [first, store()].map((own) => {
    const runs = createQueueRuns({ ...location, agents: Object.keys(agents), store: own, pollMs: 50 });
    return { runs, app: createApp({ runs, auth }) };
  });
  const worker: RunWorker = createRunWorker({ ...location, agents, store: store(), concurrency: 4, pollMs: 50 });
  cleanups.push(async () => {
    await worker.close();
    await Promise.all(apis.map((api) => api.runs.close()));
    await first.drop();
    await Promise.all(stores.map((s) => s.close()));
  });
  const request = (api: number, path: string, token: string, init: RequestInit = {}) =>
    apis[api].app.fetch(
      new Request(`http://localhost${path}`, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` },
      }),
    );
  return { apis, request, store: first };
}

describe('principals and idempotency in queue mode (PostgreSQL + BullMQ)', () => {
  it('carries the owner through the queue and filters it on every API server', async () => {
    const c = await cluster({ calls: 0 });
    const started = (await (
      await c.request(0, '/v1/agents/steps/runs', 'tok-a', postJson({ input: 'mine' }))
    ).json()) as RunRecord;
    const ended = await c.apis[0].runs.wait(started.id, AbortSignal.timeout(30_000));
    expect(ended?.status).toBe('done');
    expect(ended?.owner).toBe('alice');
    // The other API server reads the row the worker finished: alice's, not bob's.
    expect((await c.request(1, `/v1/runs/${started.id}`, 'tok-a')).status).toBe(200);
    expect((await c.request(1, `/v1/runs/${started.id}`, 'tok-b')).status).toBe(404);
    const bobs = (await (await c.request(1, '/v1/runs', 'tok-b')).json()) as { runs: unknown[] };
    expect(bobs.runs).toEqual([]);
  }, 60_000);

  it('starts one run for one Idempotency-Key sent to two API servers at once', async () => {
    const counter = { calls: 0 };
    const c = await cluster(counter);
    const send = (api: number) =>
      c.request(api, '/v1/agents/steps/runs', 'tok-a', postJson({ input: 'once' }, { 'Idempotency-Key': 'k-queue' }));
    const answers = await Promise.all([0, 1, 0, 1, 0, 1, 0, 1].map(send));
    const ids = new Set(await Promise.all(answers.map(async (a) => ((await a.json()) as RunRecord).id)));
    expect(ids.size).toBe(1);
    await c.apis[0].runs.wait([...ids][0], AbortSignal.timeout(30_000));
    expect((await c.store.queryRuns({ limit: 100 })).runs).toHaveLength(1);
    expect(counter.calls).toBe(1);
  }, 60_000);
});

describe('stores made before runs had owners', () => {
  it('SQLite: adds the owner column on open; older runs have no owner', async () => {
    const dir = tempDir();
    cleanups.push(async () => dir.cleanup());
    const path = join(dir.path, 'runs.db');
    const old = new Database(path);
    old.exec(`CREATE TABLE runs (
      id TEXT PRIMARY KEY, agent TEXT NOT NULL, input TEXT NOT NULL, history TEXT, status TEXT NOT NULL, source TEXT NOT NULL,
      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, result TEXT, questions TEXT, cancel_requested INTEGER)`);
    old.prepare("INSERT INTO runs VALUES ('old-run', 'steps', 'hi', NULL, 'done', 'api', 1, 1, NULL, NULL, 0)").run();
    old.close();
    const store = new SqliteRunStore({ path });
    try {
      expect(await store.getRun('old-run')).toEqual(expect.not.objectContaining({ owner: expect.anything() }));
      await store.createRun({
        id: 'new-run',
        agent: 'steps',
        input: 'x',
        status: 'done',
        source: 'api',
        createdAt: 2,
        updatedAt: 2,
        owner: 'alice',
      });
      expect((await store.getRun('new-run'))?.owner).toBe('alice');
      expect((await store.queryRuns({ owner: 'alice' })).runs.map((r) => r.id)).toEqual(['new-run']);
    } finally {
      await store.close();
    }
  });

  it('PostgreSQL: adds the owner column on init; older runs have no owner', async () => {
    const schema = uniqueName('tf_oldschema');
    const client = new pg.Client({ connectionString: TEST_PG });
    await client.connect();
    await client.query(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.runs (
      id TEXT PRIMARY KEY, agent TEXT NOT NULL, input TEXT NOT NULL, history TEXT, status TEXT NOT NULL, source TEXT NOT NULL,
      created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, result TEXT, questions TEXT, cancel_requested BOOLEAN);
      INSERT INTO ${schema}.runs VALUES ('old-run', 'steps', 'hi', NULL, 'done', 'api', 1, 1, NULL, NULL, false);`);
    await client.end();
    const store = new PostgresRunStore({ connectionString: TEST_PG, schema });
    try {
      await store.init();
      expect((await store.getRun('old-run'))?.owner).toBeUndefined();
      await store.createRun({
        id: 'new-run',
        agent: 'steps',
        input: 'x',
        status: 'done',
        source: 'api',
        createdAt: 2,
        updatedAt: 2,
        owner: 'alice',
      });
      expect((await store.getRun('new-run'))?.owner).toBe('alice');
      expect((await store.queryRuns({ owner: 'alice' })).runs.map((r) => r.id)).toEqual(['new-run']);
    } finally {
      await store.drop();
      await store.close();
    }
  });
});
