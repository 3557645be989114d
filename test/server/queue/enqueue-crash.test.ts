import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresRunStore } from '../../../src/server/index.js';
import { allEnded, effectsAgent, expectedEffects, queueCluster } from '../fault-fixtures.js';
import { TEST_PG, TEST_REDIS, uniqueName } from '../pg-fixtures.js';
import { postJson } from '../server-fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

const SEAM = join(import.meta.dirname, '..', 'fixtures', 'serve-killed-in-enqueue.ts');

/** Starts the API server that kills itself in the enqueue window; resolves with its URL. */
function startDoomedServer(env: Record<string, string>): Promise<{ url: string; exited: Promise<unknown> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SEAM], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  cleanups.push(async () => {
    child.kill('SIGKILL');
    await exited;
  });
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const match = /serving effects on (http:\/\/\S+)/.exec(err);
      if (match) resolve({ url: match[1], exited });
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before serving:\n${err}`)));
  });
}

describe('an API server killed between storing a run and adding its job', () => {
  it('leaves the run stored with its outbox row, and another API server enqueues it: the run ends', async () => {
    const names = { schema: uniqueName('tf_outbox'), queueName: uniqueName('runs'), prefix: uniqueName('tf') };
    const store = new PostgresRunStore({ connectionString: TEST_PG, schema: names.schema });
    await store.init();
    cleanups.push(async () => {
      await store.drop();
      await store.close();
    });
    const doomed = await startDoomedServer({
      TF_PG: TEST_PG,
      TF_SCHEMA: names.schema,
      TF_REDIS: TEST_REDIS,
      TF_QUEUE: names.queueName,
      TF_PREFIX: names.prefix,
    });

    // The client sees the connection drop: it never learns the id.
    await expect(fetch(`${doomed.url}/v1/agents/effects/runs`, postJson({ input: 'orphan?' }))).rejects.toThrow();
    await doomed.exited;
    const [run] = await store.listRuns({ status: ['queued'] });
    expect(run?.input).toBe('orphan?');
    // Stored, and its job never added.
    const queue = new Queue(names.queueName, { connection: { url: TEST_REDIS }, prefix: names.prefix });
    cleanups.push(() => queue.close());
    expect(await queue.getJobState(run.id)).toBe('unknown');
    let outboxed: boolean[] = [];
    await store.withRecoverableRuns(async (runs) => {
      outboxed = runs.map((r) => r.outboxed);
    });
    expect(outboxed).toEqual([true]);

    // A fresh API server (and a worker) over the same database and Redis.
    const effects: string[] = [];
    const started = Date.now();
    const c = await queueCluster({
      redisUrl: TEST_REDIS,
      pg: TEST_PG,
      agents: { effects: effectsAgent({ effects, delayMs: 10 }) },
      ...names,
    });
    cleanups.push(c.close);
    const [ended] = await allEnded(store, [run.id], 20_000);
    console.log(
      `A run orphaned in the enqueue window ended ${Date.now() - started} ms after a new API server started.`,
    );
    expect(ended.status).toBe('done');
    expect(effects.sort()).toEqual(expectedEffects(['orphan?']));
    // Its outbox row is gone once the job was added.
    await store.withRecoverableRuns(async (runs) => {
      outboxed = runs.map((r) => r.outboxed);
    });
    expect(outboxed).toEqual([]);
  }, 60_000);
});
