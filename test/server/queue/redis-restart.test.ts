import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresRunStore, type RunRecord } from '../../../src/server/index.js';
import { allEnded, expectedEffects, interruptedCalls } from '../fault-fixtures.js';
import { TEST_PG, uniqueName } from '../pg-fixtures.js';
import { startPrivateRedis } from '../private-services.js';
import { lines, postJson, tempDir } from '../server-fixtures.js';
import { eventually, type ServerProcess, spawnCli } from '../spawn-server.js';

const CONFIG = join(import.meta.dirname, '..', 'fixtures', 'effects.config.ts');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => {});
});

describe('thinkflow serve --queue and two workers survive a Redis restart that loses every key', () => {
  it('end every run done, each not-idempotent effect once, and answer 503 (not a hang) while Redis is down', async () => {
    const redis = await startPrivateRedis();
    cleanups.push(redis.close);
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    const schema = uniqueName('tf_redis');
    const queueName = uniqueName('runs');
    const store = new PostgresRunStore({ connectionString: TEST_PG, schema });
    await store.init();
    cleanups.push(async () => {
      await store.drop();
      await store.close();
    });
    const env = { EFFECTS_FILE: join(dir.path, 'effects.txt'), EFFECT_DELAY_MS: '40' };
    const common = ['--config', CONFIG, '--queue', redis.url, '--queue-name', queueName, '--pg', TEST_PG];
    const spawn = async (args: string[]): Promise<ServerProcess> => {
      const child = await spawnCli([...args, ...common, '--pg-schema', schema], env);
      cleanups.push(() => child.kill());
      return child;
    };
    const [serve, ...workers] = await Promise.all([
      spawn(['serve', '--port', '0', '--recovery-interval', '1000']),
      spawn(['worker', '--concurrency', '3']),
      spawn(['worker', '--concurrency', '3']),
    ]);
    const request = (path: string, init?: RequestInit) => fetch(`${serve.url}${path}`, init);

    const inputs = Array.from({ length: 40 }, (_, i) => `run-${i}`);
    const started = await Promise.all(inputs.map((input) => request('/v1/agents/effects/runs', postJson({ input }))));
    expect(started.map((r) => r.status)).toEqual(inputs.map(() => 202));
    const ids = ((await Promise.all(started.map((r) => r.json()))) as RunRecord[]).map((r) => r.id);
    // Some runs done, some running, most still waiting in BullMQ's queue.
    await eventually(() => (lines(env.EFFECTS_FILE).length >= 15 ? true : undefined), 30_000);
    await redis.shutdown();
    const down = Date.now();

    // With Redis gone: readiness says so, and starting a run answers 503 within the bounded wait (5 s).
    const ready = await request('/ready');
    expect(ready.status).toBe(503);
    expect((await ready.json()).checks.redis.ok).toBe(false);
    const refused = await request('/v1/agents/effects/runs', postJson({ input: 'while down' }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect((await refused.json()).error.code).toBe('dependency_unavailable');

    await redis.start();
    const up = Date.now();
    const runs = await allEnded(store, ids, 40_000);
    console.log(`Redis down ${up - down} ms; every run ended ${Date.now() - up} ms after it came back (empty).`);

    expect(runs.map((run) => run.status)).toEqual(ids.map(() => 'done'));
    // Each call logged once: nothing lost, nothing not-idempotent done twice.
    expect(lines(env.EFFECTS_FILE).sort()).toEqual(expectedEffects(inputs));
    expect(interruptedCalls(runs)).toEqual([]);
    // The runs Redis lost were put back by the reconciler, from PostgreSQL.
    expect(serve.stderr()).toMatch(/re-enqueued \d+ runs? that/);
    expect((await request('/ready')).status).toBe(200);
    // Every ioredis client has an error listener, and the outage is not a wall of log lines.
    for (const child of [serve, ...workers]) {
      expect(child.stderr()).not.toContain('Unhandled error event');
      expect(child.stderr().split('\n').length).toBeLessThan(60);
    }
    // The agent's queued count was rebuilt from PostgreSQL: nothing counts against maxQueuedRuns.
    const client = new Redis(redis.url);
    try {
      const key = `thinkflow:${queueName}:queued-runs:effects`;
      await eventually(async () => ((await client.zcard(key)) === 0 ? true : undefined), 10_000);
    } finally {
      client.disconnect();
    }
  }, 90_000);
});
