import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/server/index.js';
import { allEnded, effectsAgent, expectedEffects, interruptedCalls, queueCluster } from './fault-fixtures.js';
import { TEST_PG } from './pg-fixtures.js';
import { startPrivateRedis } from './private-services.js';
import { postJson } from './server-fixtures.js';
import { eventually } from './spawn-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

describe('queue mode survives a Redis restart that loses every key', () => {
  it('ends every run done, each not-idempotent effect once, and answers 503 (not a hang) while Redis is down', async () => {
    const redis = await startPrivateRedis();
    cleanups.push(redis.close);
    const effects: string[] = [];
    const errors: string[] = [];
    const c = await queueCluster({
      redisUrl: redis.url,
      pg: TEST_PG,
      agents: { effects: effectsAgent({ effects, delayMs: 40 }) },
      workers: 2,
      concurrency: 3,
      errors,
    });
    cleanups.push(c.close);

    const inputs = Array.from({ length: 40 }, (_, i) => `run-${i}`);
    const started = await Promise.all(inputs.map((input) => c.request('/v1/agents/effects/runs', postJson({ input }))));
    expect(started.map((r) => r.status)).toEqual(inputs.map(() => 202));
    const ids = ((await Promise.all(started.map((r) => r.json()))) as RunRecord[]).map((r) => r.id);
    // Some runs done, some running, most still waiting in BullMQ's queue.
    await eventually(() => (effects.length >= 15 ? true : undefined), 20_000);
    await redis.shutdown();
    const down = Date.now();

    // With Redis gone: readiness says so, and starting a run answers 503 within the bounded wait.
    const ready = await c.request('/ready');
    expect(ready.status).toBe(503);
    expect((await ready.json()).checks.redis.ok).toBe(false);
    const refused = await c.request('/v1/agents/effects/runs', postJson({ input: 'while down' }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect((await refused.json()).error.code).toBe('dependency_unavailable');

    await redis.start();
    const up = Date.now();
    const runs = await allEnded(c.store, ids, 30_000);
    const recoveredMs = Date.now() - up;
    console.log(`Redis down ${up - down} ms; every run ended ${recoveredMs} ms after it came back (empty).`);

    expect(runs.map((run) => run.status)).toEqual(ids.map(() => 'done'));
    // Each call logged once: nothing lost, nothing not-idempotent done twice.
    expect(effects.filter((e) => inputs.some((input) => e.startsWith(`${input}/`))).sort()).toEqual(
      expectedEffects(inputs),
    );
    expect(interruptedCalls(runs)).toEqual([]);
    // The runs Redis lost were put back by the reconciler, from PostgreSQL.
    expect(c.recovered.runs).toBeGreaterThan(0);
    expect((await c.request('/ready')).status).toBe(200);
    // The agent's queued count was rebuilt from PostgreSQL: nothing counts against maxQueuedRuns.
    const client = new Redis(redis.url);
    try {
      const key = `${c.location.prefix}:${c.location.queueName}:queued-runs:effects`;
      await eventually(async () => ((await client.zcard(key)) === 0 ? true : undefined), 10_000);
    } finally {
      client.disconnect();
    }
  }, 60_000);
});
