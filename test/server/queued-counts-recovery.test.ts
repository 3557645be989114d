import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, createQueueRuns, PostgresRunStore } from '../../src/server/index.js';
import { TEST_PG, TEST_REDIS, uniqueName } from './pg-fixtures.js';
import { postJson } from './server-fixtures.js';
import { eventually } from './spawn-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

describe("an agent's queued count in Redis", () => {
  it('drops an id PostgreSQL has no queued run for, so it stops counting against maxQueuedRuns', async () => {
    const schema = uniqueName('tf_counts');
    const location = { redisUrl: TEST_REDIS, queueName: uniqueName('runs'), prefix: uniqueName('tf') };
    const store = new PostgresRunStore({ connectionString: TEST_PG, schema });
    await store.init();
    const redis = new Redis(TEST_REDIS);
    const key = `${location.prefix}:${location.queueName}:queued-runs:helper`;
    // Left by an API server that died after counting a run and before storing it, a minute ago.
    await redis.zadd(key, Date.now() - 60_000, 'run-that-was-never-stored');
    const runs = createQueueRuns({
      ...location,
      agents: ['helper'],
      store,
      limits: { maxQueuedRuns: 1 },
      recoveryIntervalMs: 3_600_000,
    });
    cleanups.push(async () => {
      await runs.close();
      redis.disconnect();
      await store.drop();
      await store.close();
    });
    const app = createApp({ runs });
    const start = () => app.fetch(new Request('http://local/v1/agents/helper/runs', postJson({ input: 'hi' })));

    // The start-up pass rebuilds the count from PostgreSQL (no queued runs there).
    await eventually(
      async () => ((await redis.zscore(key, 'run-that-was-never-stored')) === null ? true : undefined),
      10_000,
    );
    expect((await start()).status).toBe(202);
    // The run just started is queued in PostgreSQL (no worker): it counts, and the next is refused.
    expect((await start()).status).toBe(429);
    expect(await redis.zcard(key)).toBe(1);
  }, 30_000);
});
