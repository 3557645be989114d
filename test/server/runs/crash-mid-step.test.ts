import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresRunStore, type RunRecord } from '../../../src/server/index.js';
import { TEST_PG, TEST_REDIS, uniqueName } from '../pg-fixtures.js';
import { lines, parseSse, postJson, tempDir } from '../server-fixtures.js';
import { eventually, type ServerProcess, spawnCli } from '../spawn-server.js';

// One step of three calls: `lookup` (idempotent) and `charge` end at once, `slow` (not idempotent) waits for GATE_FILE.
const CONFIG = join(import.meta.dirname, '..', 'fixtures', 'crash-step.config.ts');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function spawn(args: string[], env: Record<string, string>): Promise<ServerProcess> {
  const child = await spawnCli(args, env);
  cleanups.push(() => child.kill());
  return child;
}

/** Reads the run's SSE log until `tool_end` of each named tool is stored (committed), then hangs up. */
async function untilStored(url: string, runId: string, tools: string[]): Promise<void> {
  const controller = new AbortController();
  const response = await fetch(`${url}/v1/runs/${runId}/events`, { signal: controller.signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`The event stream ended before ${tools.join(', ')} ended.`);
      text += value;
      const ended = parseSse(text)
        .filter((e) => e.event === 'tool_end')
        .map((e) => (JSON.parse(e.data) as { tool: string }).tool);
      if (tools.every((t) => ended.includes(t))) return;
    }
  } finally {
    controller.abort();
  }
}

/** Polls the API until the run has ended. */
function ended(url: string, id: string): Promise<RunRecord> {
  return eventually(async () => {
    const body = (await (await fetch(`${url}/v1/runs/${id}`)).json()) as RunRecord;
    return ['queued', 'running', 'waiting'].includes(body.status) ? undefined : body;
  }, 120_000);
}

/** What a crash in the middle of the step must leave: each ended call once, its result kept, only `slow` interrupted. */
function expectExactlyOnce(run: RunRecord, files: { count: string; requests: string }): void {
  expect(run.status).toBe('done');
  expect(run.result?.output).toBe('Finished after a restart.');
  const calls = lines(files.count);
  expect(calls.filter((c) => c === 'lookup')).toHaveLength(1);
  expect(calls.filter((c) => c === 'charge')).toHaveLength(1);
  expect(calls.filter((c) => c === 'slow-start')).toHaveLength(1);
  const outputs = run.result?.steps[0].toolCalls.map((c) => c.output) ?? [];
  expect(outputs.slice(0, 2)).toEqual(['lookup result', 'charge result']);
  expect(outputs[2]).toMatch(/The call to slow was interrupted by a restart/);
  // The model's last request: what it was told about the step.
  const told = JSON.parse(lines(files.requests).at(-1) ?? '[]') as string[];
  expect(told.slice(0, 2)).toEqual(['lookup result', 'charge result']);
  expect(told[2]).toMatch(/The call to slow was interrupted by a restart/);
}

function crashEnv(dir: string) {
  return {
    COUNT_FILE: join(dir, 'calls.txt'),
    GATE_FILE: join(dir, 'gate'),
    REQUESTS_FILE: join(dir, 'requests.txt'),
    THINKFLOW_API_TOKENS: '',
  };
}

describe('kill -9 in the middle of a step of several calls', () => {
  it('embedded (SQLite): the restarted server keeps the calls that ended and runs none of them again', async () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    const env = crashEnv(dir.path);
    const args = ['serve', '--port', '0', '--config', CONFIG, '--data-dir', dir.path];
    const first = await spawn(args, env);
    const created = await fetch(`${first.url}/v1/agents/step/runs`, postJson({ input: 'go' }));
    const { id } = (await created.json()) as RunRecord;
    await untilStored(first.url, id, ['lookup', 'charge']);
    expect(lines(env.COUNT_FILE)).toContain('slow-start');
    await first.kill('SIGKILL');

    writeFileSync(env.GATE_FILE, '');
    const second = await spawn(args, env);
    const run = await ended(second.url, id);
    expectExactlyOnce(run, { count: env.COUNT_FILE, requests: env.REQUESTS_FILE });
    const events = parseSse(await (await fetch(`${second.url}/v1/runs/${id}/events`)).text());
    expect(events.filter((e) => e.event === 'run_end')).toHaveLength(1);
    expect(events.map((e) => Number(e.id))).toEqual(events.map((_, i) => i + 1));
  }, 300_000);

  it('queue mode (BullMQ + PostgreSQL): after serve and worker are killed, a new worker keeps the calls that ended', async () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    const env = crashEnv(dir.path);
    const schema = uniqueName('tf_step');
    const queueName = uniqueName('runs');
    cleanups.push(async () => {
      const store = new PostgresRunStore({ connectionString: TEST_PG, schema });
      await store.drop();
      await store.close();
      const redis = new Redis(TEST_REDIS);
      const keys = await redis.keys(`thinkflow:${queueName}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    });
    const shared = ['--config', CONFIG, '--queue', TEST_REDIS, '--queue-name', queueName, '--pg', TEST_PG];
    shared.push('--pg-schema', schema);
    const serveArgs = ['serve', '--port', '0', ...shared];
    const workerArgs = ['worker', ...shared, '--lock-duration', '3000', '--stalled-interval', '500'];
    const [api, worker] = await Promise.all([spawn(serveArgs, env), spawn(workerArgs, env)]);
    const created = await fetch(`${api.url}/v1/agents/step/runs`, postJson({ input: 'go' }));
    const { id } = (await created.json()) as RunRecord;
    await untilStored(api.url, id, ['lookup', 'charge']);
    expect(lines(env.COUNT_FILE)).toContain('slow-start');
    await Promise.all([worker.kill('SIGKILL'), api.kill('SIGKILL')]);

    writeFileSync(env.GATE_FILE, '');
    const [api2] = await Promise.all([spawn(serveArgs, env), spawn(workerArgs, env)]);
    const run = await ended(api2.url, id);
    expectExactlyOnce(run, { count: env.COUNT_FILE, requests: env.REQUESTS_FILE });
    const events = parseSse(await (await fetch(`${api2.url}/v1/runs/${id}/events`)).text());
    expect(events.filter((e) => e.event === 'run_end')).toHaveLength(1);
    expect(events.map((e) => Number(e.id))).toEqual(events.map((_, i) => i + 1));
  }, 300_000);

  it('embedded: a call waiting for approval at the kill is asked for again after the restart and runs once approved', async () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    const env = crashEnv(dir.path);
    const args = ['serve', '--port', '0', '--config', CONFIG, '--data-dir', dir.path];
    const first = await spawn(args, env);
    const created = await fetch(`${first.url}/v1/agents/approve/runs`, postJson({ input: 'ship' }));
    const { id } = (await created.json()) as RunRecord;
    await waitingFor(first.url, id);
    await first.kill('SIGKILL');

    const second = await spawn(args, env);
    const paused = await waitingFor(second.url, id);
    expect(paused.questions).toEqual([expect.objectContaining({ kind: 'approval', tool: 'deploy' })]);
    await fetch(`${second.url}/v1/runs/${id}/approvals`, postJson({ approved: true }));
    const run = await ended(second.url, id);
    expect(run.status).toBe('done');
    expect(run.result?.output).toBe('Told: deployed');
    expect(lines(env.COUNT_FILE)).toEqual(['deploy']);
  }, 300_000);
});

/** Polls the API until the run waits for a person. */
function waitingFor(url: string, id: string): Promise<RunRecord> {
  return eventually(async () => {
    const body = (await (await fetch(`${url}/v1/runs/${id}`)).json()) as RunRecord;
    return body.status === 'waiting' ? body : undefined;
  }, 120_000);
}
