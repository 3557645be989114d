import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createQueueRuns, PostgresRunStore } from '../../../src/server/index.js';
import { TEST_PG, TEST_REDIS, uniqueName } from '../pg-fixtures.js';
import { lines, tempDir } from '../server-fixtures.js';
import { eventually, type ServerProcess, spawnCli } from '../spawn-server.js';

// `record` appends its label to COUNT_FILE; `slow` (idempotent) and `once` append theirs, then wait for GATE_FILE.
const CONFIG = join(import.meta.dirname, '..', 'fixtures', 'durable.config.ts');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('thinkflow worker killed mid-run', () => {
  it('is taken over by another worker after a short lock: finished calls kept, in-flight ones rerun only if idempotent', async () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    const schema = uniqueName('tf_crash');
    const queueName = uniqueName('runs');
    const store = new PostgresRunStore({ connectionString: TEST_PG, schema });
    await store.init();
    const runs = createQueueRuns({ redisUrl: TEST_REDIS, queueName, agents: ['durable'], store, pollMs: 50 });
    cleanups.push(async () => {
      await runs.close();
      await store.drop();
      await store.close();
    });
    const env = { COUNT_FILE: join(dir.path, 'calls.txt'), GATE_FILE: join(dir.path, 'gate') };
    const worker = async (): Promise<ServerProcess> => {
      const args = ['worker', '--config', CONFIG, '--queue', TEST_REDIS, '--queue-name', queueName];
      args.push('--pg', TEST_PG, '--pg-schema', schema, '--lock-duration', '3000', '--stalled-interval', '500');
      const child = await spawnCli(args, env);
      cleanups.push(() => child.kill());
      return child;
    };

    const first = await worker();
    const started = await runs.start({ agent: 'durable', input: 'do the things' });
    if (!started.ok) throw new Error(`start refused: ${started.reason}`);
    const { id } = started.run;
    // Two calls done and checkpointed, two in flight.
    await eventually(() => (lines(env.COUNT_FILE).length === 4 ? true : undefined), 30_000);
    await first.kill('SIGKILL');
    const killedAt = Date.now();
    expect((await store.getRun(id))?.status).toBe('running');

    writeFileSync(env.GATE_FILE, '');
    await worker();
    const run = await runs.wait(id, AbortSignal.timeout(30_000));
    const events = await store.readEvents(id, 0);

    expect(run?.status).toBe('done');
    expect(run?.result?.output).toBe('Finished after a restart.');
    // Taken over once the dead worker's 3 s lock expired, not after BullMQ's default 30 s.
    expect(Date.now() - killedAt).toBeLessThan(25_000);
    const calls = lines(env.COUNT_FILE);
    expect(calls.filter((c) => c === 'a')).toHaveLength(1);
    expect(calls.filter((c) => c === 'b')).toHaveLength(1);
    expect(calls.filter((c) => c === 'slow-start')).toHaveLength(2);
    expect(calls.filter((c) => c === 'once-start')).toHaveLength(1);
    const [slow, once] = run?.result?.steps[2].toolCalls ?? [];
    expect(slow.output).toBe('slow done');
    expect(once.output).toContain('interrupted');
    expect(events.filter((e) => e.event.type === 'run_end')).toHaveLength(1);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  }, 55_000);
});
