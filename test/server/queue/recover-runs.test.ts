import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, createQueueRuns, PostgresRunStore, type RunRecord } from '../../../src/server/index.js';
import { TEST_PG, TEST_REDIS, uniqueName } from '../pg-fixtures.js';
import { postJson } from '../server-fixtures.js';
import { eventually } from '../spawn-server.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => {});
});

async function deployment() {
  const schema = uniqueName('tf_recover');
  const location = { redisUrl: TEST_REDIS, queueName: uniqueName('runs'), prefix: uniqueName('tf') };
  const store = new PostgresRunStore({ connectionString: TEST_PG, schema });
  await store.init();
  cleanups.push(async () => {
    await store.drop();
    await store.close();
  });
  const redis = new Redis(TEST_REDIS);
  cleanups.push(() => redis.disconnect());
  const queue = new Queue(location.queueName, { connection: { url: TEST_REDIS }, prefix: location.prefix });
  cleanups.push(() => queue.close());
  const apiServer = (options: { maxQueuedRuns?: number } = {}) => {
    const runs = createQueueRuns({
      ...location,
      agents: ['helper'],
      store,
      limits: { maxQueuedRuns: options.maxQueuedRuns },
      recoveryIntervalMs: 3_600_000,
    });
    cleanups.push(() => runs.close());
    return runs;
  };
  const run = (id: string, status: RunRecord['status']): RunRecord => {
    const now = Date.now() - 60_000;
    return { id, agent: 'helper', input: id, status, source: 'api', createdAt: now, updatedAt: now };
  };
  return {
    schema,
    location,
    store,
    redis,
    queue,
    apiServer,
    run,
    countKey: `${location.prefix}:${location.queueName}:queued-runs:helper`,
  };
}

describe('the reconciler (PostgreSQL is the source of truth, Redis only delivers)', () => {
  it("drops an id from an agent's queued count that PostgreSQL has no queued run for, so it stops counting against maxQueuedRuns", async () => {
    const d = await deployment();
    // Left by an API server that died after counting a run and before storing it, a minute ago.
    await d.redis.zadd(d.countKey, Date.now() - 60_000, 'run-that-was-never-stored');
    const app = createApp({ runs: d.apiServer({ maxQueuedRuns: 1 }) });
    const start = () => app.fetch(new Request('http://localhost/v1/agents/helper/runs', postJson({ input: 'hi' })));

    // The start-up pass rebuilds the count from PostgreSQL (no queued runs there).
    await eventually(async () =>
      (await d.redis.zscore(d.countKey, 'run-that-was-never-stored')) === null ? true : undefined,
    );
    expect((await start()).status).toBe(202);
    // The run just started is queued in PostgreSQL (no worker): it counts, and the next is refused.
    expect((await start()).status).toBe(429);
    expect(await d.redis.zcard(d.countKey)).toBe(1);
  }, 30_000);

  it('re-adds the job of a run whose attempts ran out and of one whose worker lease expired, and leaves a leased run alone', async () => {
    const d = await deployment();
    // A job that failed for good (as 1,000 instant attempts did in an outage): its run stayed running.
    await d.store.createRun(d.run('exhausted', 'running'));
    await d.queue.add('run', { runId: 'exhausted', agent: 'helper' }, { jobId: 'exhausted', attempts: 1 });
    const failing = new Worker(
      d.location.queueName,
      async () => {
        throw new Error('connect ECONNREFUSED');
      },
      { connection: { url: TEST_REDIS, maxRetriesPerRequest: null }, prefix: d.location.prefix },
    );
    await eventually(async () => ((await d.queue.getJobState('exhausted')) === 'failed' ? true : undefined));
    await failing.close();
    // A run whose worker died after Redis lost its job: its lease ran out.
    await d.store.createRun(d.run('abandoned', 'running'));
    expect(await d.store.claimLease('abandoned', 'dead-worker', 1)).toBe(true);
    // A run a live worker holds (after a Redis flush, it has no job either): not touched.
    await d.store.createRun(d.run('held', 'running'));
    expect(await d.store.claimLease('held', 'live-worker', 60_000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));

    const runs = d.apiServer();
    await eventually(async () => ((await d.queue.getJobState('abandoned')) === 'waiting' ? true : undefined));
    expect(await d.queue.getJobState('exhausted')).toBe('waiting');
    expect(await d.queue.getJobState('held')).toBe('unknown');
    await runs.close();
  }, 30_000);

  it('stores a queued run with its outbox row redacted, as any run is stored', async () => {
    const d = await deployment();
    const secret = 'sk-proj-Ab12Cd34Ef56Gh78Ij90KlMn';
    await d.store.createQueuedRun(d.run('with-secret', 'queued'));
    await d.store.createQueuedRun({ ...d.run('keyed', 'queued'), input: `use ${secret}` });
    const stored = await d.store.getRun('keyed');
    expect(stored?.input).not.toContain(secret);
    let outboxed: string[] = [];
    await d.store.withRecoverableRuns(async (runs) => {
      outboxed = runs.filter((run) => run.outboxed).map((run) => run.id);
    });
    expect(outboxed.sort()).toEqual(['keyed', 'with-secret']);
  }, 30_000);

  it('runs in one process at a time: a second store finds the lock taken and skips its pass', async () => {
    const d = await deployment();
    const other = new PostgresRunStore({ connectionString: TEST_PG, schema: d.schema });
    cleanups.push(() => other.close());
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered = () => {};
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const first = d.store.withRecoverableRuns(async () => {
      entered();
      await held;
    });
    await inside;
    try {
      expect(await other.withRecoverableRuns(async () => {})).toBe(false);
    } finally {
      release();
    }
    expect(await first).toBe(true);
    expect(await other.withRecoverableRuns(async () => {})).toBe(true);
  }, 30_000);
});
