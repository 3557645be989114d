import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresRunStore, type RunRecord } from '../../../src/server/index.js';
import { allEnded, expectedEffects, interruptedCalls } from '../fault-fixtures.js';
import { TEST_REDIS, uniqueName } from '../pg-fixtures.js';
import { startPrivatePostgres } from '../private-services.js';
import { lines, postJson, tempDir } from '../server-fixtures.js';
import { eventually, type ServerProcess, spawnCli } from '../spawn-server.js';

const CONFIG = join(import.meta.dirname, '..', 'fixtures', 'effects.config.ts');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => {});
});

// 10 s of outage: longer than the 7 s blip that already cost the old worker its finished calls (each
// call that ended meanwhile lost its commit, and its jobs burned their 1,000 attempts without backoff),
// and the whole test stays well under a minute. The attempt logic is proven by no job failing at all.
const OUTAGE_MS = 10_000;

describe('thinkflow serve --queue and two workers ride out a PostgreSQL outage', () => {
  it('end every accepted run after PostgreSQL returns, no finished call run again or reported interrupted', async () => {
    const pg = await startPrivatePostgres();
    cleanups.push(pg.close);
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    const schema = uniqueName('tf_pg');
    const store = new PostgresRunStore({ connectionString: pg.url, schema, connectTimeoutMs: 1000 });
    await store.init();
    cleanups.push(() => store.close());
    const env = { EFFECTS_FILE: join(dir.path, 'effects.txt'), EFFECT_DELAY_MS: '800' };
    const common = ['--config', CONFIG, '--queue', TEST_REDIS, '--queue-name', uniqueName('runs')];
    const spawn = async (args: string[]): Promise<ServerProcess> => {
      const child = await spawnCli([...args, ...common, '--pg', pg.url, '--pg-schema', schema], env);
      cleanups.push(() => child.kill());
      return child;
    };
    const [serve, ...workers] = await Promise.all([
      spawn(['serve', '--port', '0', '--recovery-interval', '1000']),
      spawn(['worker', '--concurrency', '4']),
      spawn(['worker', '--concurrency', '4']),
    ]);
    const request = (path: string, init?: RequestInit) => fetch(`${serve.url}${path}`, init);

    const inputs = Array.from({ length: 8 }, (_, i) => `run-${i}`);
    const started = await Promise.all(inputs.map((input) => request('/v1/agents/effects/runs', postJson({ input }))));
    expect(started.map((r) => r.status)).toEqual(inputs.map(() => 202));
    const ids = ((await Promise.all(started.map((r) => r.json()))) as RunRecord[]).map((r) => r.id);
    // Every run is mid-call: the calls in flight end while PostgreSQL is down.
    await eventually(() => (lines(env.EFFECTS_FILE).length >= 8 ? true : undefined), 30_000);
    const logged = [serve, ...workers].map((child) => child.stderr().split('\n').length);
    await pg.stop();
    const down = Date.now();

    // While it is down: readiness says so, and the API answers 503 with Retry-After, not 500.
    await eventually(async () => ((await request('/ready')).status === 503 ? true : undefined), 5000);
    expect((await (await request('/ready')).json()).checks.postgres.ok).toBe(false);
    const refused = await request('/v1/agents/effects/runs', postJson({ input: 'while down' }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect((await refused.json()).error.code).toBe('dependency_unavailable');
    expect((await request(`/v1/runs/${ids[0]}`)).status).toBe(503);

    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS - (Date.now() - down)));
    await pg.start();
    const up = Date.now();
    await eventually(async () => ((await request('/ready')).status === 200 ? true : undefined), 10_000);
    const ready = Date.now() - up;
    const runs = await allEnded(store, ids, 40_000);
    console.log(
      `PostgreSQL down ${up - down} ms; /ready 200 ${ready} ms after it came back, every run ended ${Date.now() - up} ms after.`,
    );

    expect(runs.map((run) => run.status)).toEqual(ids.map(() => 'done'));
    // Each call ran once: the ones that ended during the outage were written late, not lost.
    expect(lines(env.EFFECTS_FILE).sort()).toEqual(expectedEffects(inputs));
    expect(interruptedCalls(runs)).toEqual([]);
    // Workers paused instead of spinning, and the API logged the outage, not a stack per request.
    [serve, ...workers].forEach((child, i) => {
      const added = child
        .stderr()
        .split('\n')
        .slice(logged[i] - 1);
      expect(added.length, added.join('\n')).toBeLessThan(30);
      expect(child.stderr()).not.toContain('    at ');
      // No job failed: an outage spends no attempts.
      expect(child.stderr()).not.toContain('Run job failed');
    });
    expect(workers[0].stderr()).toContain('PostgreSQL is unreachable: taking no new jobs');
  }, 90_000);
});
