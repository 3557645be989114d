import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../server-fixtures.js';
import { callAsAlice, eventually, type ServerProcess, spawnCli } from '../spawn-server.js';

const CONFIG = new URL('../fixtures/workflows.config.ts', import.meta.url).pathname;
const dir = tempDir();
const log = join(dir.path, 'marks.log');
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  dir.cleanup();
});

async function start(env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await spawnCli(['serve', '--port', '0', '--config', CONFIG, '--data-dir', dir.path], {
    WF_LOG: log,
    ...env,
  });
  cleanups.push(() => server.kill());
  return server;
}

const call = callAsAlice;

describe('workflow runs across a restart of thinkflow serve', () => {
  it('resumes a nested suspended run after a restart (its parents continue), and a run left running', async () => {
    let server = await start({ WF_HANG: '1' });
    const nested = await call(server, '/v1/workflows/outer/runs?wait=true', { input: 4 });
    expect(nested.json.status).toBe('suspended');
    expect(nested.json.suspended).toEqual([
      expect.objectContaining({ path: '0.middle/0.inner/0.approve', payload: { asks: 4 } }),
    ]);
    const slow = await call(server, '/v1/workflows/slow/runs', { input: 'abc' });
    expect(slow.status).toBe(202);
    await eventually(async () => (await call(server, `/v1/workflows/runs/${slow.json.id}`)).json.steps['0.mark']);
    // Events go to the store within 50 ms: the killed process's are read back by the next one.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await server.kill('SIGKILL');

    server = await start();
    // Left `running` by the killed process: resumed at start-up, without running `mark` again.
    const recovered = await eventually(async () => {
      const run = (await call(server, `/v1/workflows/runs/${slow.json.id}`)).json;
      return run.status === 'done' ? run : undefined;
    });
    expect(recovered.output).toBe('ABC!');
    expect(readFileSync(log, 'utf8')).toBe('mark\nhang\n');
    const stream = await fetch(`${server.url}/v1/workflows/runs/${slow.json.id}/events`, {
      headers: { authorization: 'Bearer tok-alice' },
    });
    const events = [...(await stream.text()).matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!));
    expect(events.map((e) => `${e.type}${e.path ? ` ${e.path}` : ''}${e.resumed ? ' resumed' : ''}`)).toEqual([
      'workflow_start',
      'step_start 0.mark',
      'step_end 0.mark',
      'step_start 1.hang',
      'workflow_start resumed',
      'step_start 1.hang',
      'step_end 1.hang',
      'workflow_end',
    ]);

    const id = nested.json.id as string;
    expect((await call(server, `/v1/runs/${id}/resume`, { step: 'approve', payload: { ok: 'yes' } })).status).toBe(400);
    expect((await call(server, `/v1/workflows/runs/${id}`)).json.status).toBe('suspended');
    const done = await call(server, `/v1/runs/${id}/resume?wait=true`, { step: 'approve', payload: { ok: true } });
    expect(done.json).toMatchObject({ status: 'done', output: 'got 10' });
    expect(done.json.steps['0.middle/1.double']).toMatchObject({ status: 'done', output: 10 });
  }, 120_000);
});
