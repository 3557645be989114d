import { afterEach, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/server/index.js';
import { allEnded, effectsAgent, expectedEffects, interruptedCalls, queueCluster } from './fault-fixtures.js';
import { TEST_REDIS } from './pg-fixtures.js';
import { startPrivatePostgres } from './private-services.js';
import { postJson } from './server-fixtures.js';
import { eventually } from './spawn-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

// 12 s of outage: far past what the old worker survived (its jobs' 1,000 attempts, without backoff,
// failed within seconds, and every call that ended meanwhile lost its commit), under a minute in all.
const OUTAGE_MS = 12_000;

describe('queue mode rides out a PostgreSQL outage', () => {
  it('ends every accepted run after PostgreSQL returns, no finished call run again or reported interrupted', async () => {
    const pg = await startPrivatePostgres();
    cleanups.push(pg.close);
    const effects: string[] = [];
    const errors: string[] = [];
    const c = await queueCluster({
      redisUrl: TEST_REDIS,
      pg: pg.url,
      agents: { effects: effectsAgent({ effects, delayMs: 1200 }) },
      workers: 2,
      concurrency: 4,
      errors,
    });
    cleanups.push(c.close);

    const inputs = Array.from({ length: 8 }, (_, i) => `run-${i}`);
    const started = await Promise.all(inputs.map((input) => c.request('/v1/agents/effects/runs', postJson({ input }))));
    expect(started.map((r) => r.status)).toEqual(inputs.map(() => 202));
    const ids = ((await Promise.all(started.map((r) => r.json()))) as RunRecord[]).map((r) => r.id);
    // Every run is mid-call: the calls in flight end while PostgreSQL is down.
    await eventually(() => (effects.length >= 8 ? true : undefined), 20_000);
    await pg.stop();
    const down = Date.now();
    errors.length = 0;

    // While it is down: readiness says so, and the API answers 503 with Retry-After, not 500.
    await eventually(async () => ((await c.request('/ready')).status === 503 ? true : undefined), 5000);
    expect((await (await c.request('/ready')).json()).checks.postgres.ok).toBe(false);
    const refused = await c.request('/v1/agents/effects/runs', postJson({ input: 'while down' }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect((await refused.json()).error.code).toBe('dependency_unavailable');
    expect((await c.request(`/v1/runs/${ids[0]}`)).status).toBe(503);

    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS - (Date.now() - down)));
    const errorsWhileDown = errors.length;
    await pg.start();
    const up = Date.now();
    const runs = await allEnded(c.store, ids, 40_000);
    console.log(
      `PostgreSQL down ${up - down} ms (${errorsWhileDown} errors reported); every run ended ${Date.now() - up} ms after it came back.`,
    );

    expect(runs.map((run) => run.status)).toEqual(ids.map(() => 'done'));
    // Each call ran once: the ones that ended during the outage were written late, not lost.
    expect(effects.filter((e) => inputs.some((input) => e.startsWith(`${input}/`))).sort()).toEqual(
      expectedEffects(inputs),
    );
    expect(interruptedCalls(runs)).toEqual([]);
    // Workers waited instead of spinning: a handful of errors reported, not thousands.
    expect(errorsWhileDown).toBeLessThan(100);
    await eventually(async () => ((await c.request('/ready')).status === 200 ? true : undefined), 5000);
  }, 90_000);
});
