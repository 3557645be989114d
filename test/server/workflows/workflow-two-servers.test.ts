import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_PG, uniqueName } from '../pg-fixtures.js';
import { tempDir } from '../server-fixtures.js';
import { callAsAlice, eventually, type ServerProcess, spawnCli } from '../spawn-server.js';

// Two `thinkflow serve` processes on one PostgreSQL: a run is carried by one process at a time.
const CONFIG = new URL('../fixtures/workflows.config.ts', import.meta.url).pathname;
const dir = tempDir();
const log = join(dir.path, 'marks.log');
const schema = uniqueName('tf_wf2');
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  dir.cleanup();
  const pool = new pg.Pool({ connectionString: TEST_PG, max: 1 });
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

async function start(name: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await spawnCli(
    [
      'serve',
      '--port',
      '0',
      '--config',
      CONFIG,
      '--data-dir',
      join(dir.path, name),
      '--pg',
      TEST_PG,
      '--pg-schema',
      schema,
    ],
    { WF_LOG: log, ...env },
  );
  cleanups.push(() => server.kill());
  return server;
}

const call = callAsAlice;

describe('workflow runs on two serve processes sharing --pg', () => {
  it('resumes a run whose process died in exactly one of them, lets one of two racing resumes through, and cancels across processes', async () => {
    const doomed = await start('doomed', { WF_HANG: '1' });
    const slow = await call(doomed, '/v1/workflows/slow/runs', { input: 'abc' });
    expect(slow.status).toBe(202);
    await eventually(async () => (await call(doomed, `/v1/workflows/runs/${slow.json.id}`)).json.steps['0.mark']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await doomed.kill('SIGKILL');

    // Both start at once and both look for unfinished runs: one takes the dead process's lease.
    const [a, b] = await Promise.all([start('a'), start('b')]);
    const done = await eventually(async () => {
      const run = (await call(b, `/v1/workflows/runs/${slow.json.id}`)).json;
      return run.status === 'done' ? run : undefined;
    }, 30_000);
    expect(done.output).toBe('ABC!');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(readFileSync(log, 'utf8')).toBe('mark\nhang\n');
    // Either process streams the whole log: the dead one's pass and the resumed one.
    const stream = await fetch(`${a.url}/v1/workflows/runs/${slow.json.id}/events`, {
      headers: { authorization: 'Bearer tok-alice' },
    });
    const types = [...(await stream.text()).matchAll(/^event: (.*)$/gm)].map((m) => m[1]);
    expect(types.filter((t) => t === 'workflow_start')).toHaveLength(2);
    expect(types.filter((t) => t === 'workflow_end')).toHaveLength(1);
    expect(types.at(-1)).toBe('workflow_end');

    const tally = await call(a, '/v1/workflows/tally/runs?wait=true', { input: 'abc' });
    expect(tally.json.status).toBe('suspended');
    const resumes = await Promise.all(
      [a, b].map((server) =>
        call(server, `/v1/runs/${tally.json.id}/resume`, { step: 'review', payload: { factor: 2 } }),
      ),
    );
    const statuses = resumes.map((r) => r.status).sort();
    expect(statuses[0]).toBeLessThan(300);
    expect(statuses[1]).toBe(409);
    const ended = await eventually(async () => {
      const run = (await call(a, `/v1/workflows/runs/${tally.json.id}`)).json;
      return run.status === 'done' ? run : undefined;
    });
    expect(ended.output).toBe('total 6');

    // A cancel sent to one process stops a run another carries, at that one's next lease renewal.
    const hanger = await start('hanger', { WF_HANG: '1' });
    const stuck = await call(hanger, '/v1/workflows/slow/runs', { input: 'xyz' });
    await eventually(async () => (await call(a, `/v1/workflows/runs/${stuck.json.id}`)).json.steps['0.mark']);
    const asked = await call(b, `/v1/workflows/runs/${stuck.json.id}/cancel`, {});
    expect(asked.status).toBe(202);
    const cancelled = await eventually(async () => {
      const run = (await call(a, `/v1/workflows/runs/${stuck.json.id}`)).json;
      return run.status === 'cancelled' ? run : undefined;
    }, 20_000);
    expect(cancelled.error).toMatchObject({ code: 'cancelled' });
  }, 180_000);
});
