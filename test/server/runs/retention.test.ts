import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  PostgresRunStore,
  type RunRecord,
  retentionRequest,
  SqliteRunStore,
  serve,
  startRetention,
} from '../../../src/server/index.js';
import { TEST_PG, uniqueName } from '../pg-fixtures.js';
import { embeddedApp, postJson, stepsAgent, tempDir } from '../server-fixtures.js';

const DAY = 86_400_000;

function endedRun(id: string, createdAt: number, status: RunRecord['status'] = 'done'): RunRecord {
  return { id, agent: 'a', input: 'x', status, source: 'api', createdAt, updatedAt: createdAt };
}

describe('retentionRequest', () => {
  it('keeps 30 days by default, and everything with 0 days and no run limit', () => {
    const now = Date.UTC(2026, 0, 31);
    expect(retentionRequest(undefined, now)).toEqual({ olderThan: now - 30 * DAY, limit: undefined });
    expect(retentionRequest({ maxAgeDays: 0 }, now)).toBeUndefined();
    expect(retentionRequest({ maxAgeDays: 0, maxRuns: 10, batchSize: 5 }, now)).toEqual({ keepNewest: 10, limit: 5 });
  });
});

describe('the background pruner', () => {
  it('deletes a backlog of expired runs in small batches and keeps unfinished ones', async () => {
    const store = new SqliteRunStore({ path: ':memory:' });
    const old = Date.now() - 10 * DAY;
    for (let i = 0; i < 1200; i++) void store.createRun(endedRun(`r${String(i).padStart(5, '0')}`, old + i));
    void store.createRun(endedRun('waiting', old - 1, 'waiting'));
    void store.createRun(endedRun('queued', old - 1, 'queued'));
    void store.createRun(endedRun('fresh', Date.now()));
    const batches: number[] = [];
    const retention = startRetention({
      store,
      config: { maxAgeDays: 1, batchSize: 500, pauseMs: 1, intervalMs: 3_600_000 },
      onPruned: (runs) => batches.push(runs),
    });
    expect(await retention.prune()).toBe(1200);
    expect(batches).toEqual([500, 500, 200]);
    const stats = await store.stats();
    expect(stats.byStatus).toEqual({ waiting: 1, queued: 1, done: 1 });
    await retention.stop();
    await store.close();
  });

  it('a pruned run answers 404 with the JSON error, on the run and on its events', async () => {
    const server = embeddedApp({ agents: { steps: stepsAgent({ toolSteps: 1 }) } });
    const started = await server.request('/v1/agents/steps/runs?wait=true', postJson({ input: 'go' }));
    const run = (await started.json()) as RunRecord;
    expect(run.status).toBe('done');
    expect((await server.request(`/v1/runs/${run.id}`)).status).toBe(200);
    expect(await server.store.pruneRuns({ olderThan: Date.now() + 1 })).toEqual({ runs: 1 });
    for (const path of [`/v1/runs/${run.id}`, `/v1/runs/${run.id}/events`]) {
      const response = await server.request(path);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        error: { message: `No run with id "${run.id}".`, type: 'invalid_request_error', code: 'not_found' },
      });
    }
    await server.close();
  });
});

describe('pruning PostgreSQL from several API servers', () => {
  it('skips the batch while another process prunes (holds the prune lock)', async () => {
    const schema = uniqueName('tf_test');
    const store = new PostgresRunStore({ connectionString: TEST_PG, schema });
    await store.init();
    await store.createRun(endedRun('old', Date.now() - 40 * DAY));
    const other = new pg.Client({ connectionString: TEST_PG });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`thinkflow.prune.${schema}`]);
      expect(await store.pruneRuns({ olderThan: Date.now() - DAY })).toEqual({ runs: 0, skipped: true });
      expect(await store.getRun('old')).toBeDefined();
      await other.query('COMMIT');
      expect(await store.pruneRuns({ olderThan: Date.now() - DAY })).toEqual({ runs: 1 });
    } finally {
      await other.end();
      await store.drop();
      await store.close();
    }
  });
});

describe('serve', () => {
  async function serveWith(retentionDays: number | undefined) {
    const dir = tempDir();
    const store = new SqliteRunStore({ path: join(dir.path, 'runs.db') });
    await store.createRun(endedRun('expired', Date.now() - 40 * DAY));
    await store.close();
    const server = await serve({
      config: { agents: { steps: stepsAgent() } },
      port: 0,
      dataDir: dir.path,
      retentionDays,
      log: () => {},
    });
    return { server, dir };
  }

  it('prunes runs older than 30 days in the background by default', async () => {
    const { server, dir } = await serveWith(undefined);
    await expect.poll(() => server.store.getRun('expired'), { timeout: 10_000 }).toBeUndefined();
    await server.close();
    dir.cleanup();
  });

  it('keeps runs forever with --retention-days 0', async () => {
    const { server, dir } = await serveWith(0);
    expect(await server.retention.prune()).toBe(0);
    expect(await server.store.getRun('expired')).toBeDefined();
    await server.close();
    dir.cleanup();
  });
});
