import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { queueStepDispatch } from '../../../src/server/index.js';
import { loadBullmq, stepQueueSettings } from '../../../src/server/queue/queue-names.js';
import { postgresWorkflowStore } from '../../../src/workflow/index.js';
import config, { createTables } from '../fixtures/queue-workflows.config.js';
import { TEST_PG, TEST_REDIS, uniqueName } from '../pg-fixtures.js';
import { parseSse, tempDir } from '../server-fixtures.js';
import { eventually, type ServerProcess, spawnCli } from '../spawn-server.js';

const CONFIG = fileURLToPath(new URL('../fixtures/queue-workflows.config.ts', import.meta.url));
const { items, pair } = config.workflows!;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const dir = tempDir();
afterAll(() => dir.cleanup());

/** A fresh schema (the workflow store and the steps' tables) and step queue, and workers to spawn on them. */
async function cluster() {
  const schema = uniqueName('tf_wfq');
  const queueName = uniqueName('wfq');
  const pool = new pg.Pool({ connectionString: TEST_PG, max: 2 });
  await createTables(pool, schema);
  const store = postgresWorkflowStore({ connectionString: TEST_PG, schema });
  const steps = queueStepDispatch({ redisUrl: TEST_REDIS, queueName, recheckMs: 1000 });
  const processes: ServerProcess[] = [];
  const env = { WFQ_PG: TEST_PG, WFQ_SCHEMA: schema };
  cleanups.push(async () => {
    await Promise.all(processes.map((p) => p.kill()));
    await steps.close();
    await store.close?.();
    const settings = stepQueueSettings({ redisUrl: TEST_REDIS, queueName });
    const queue = new (loadBullmq().Queue)(settings.name, settings.options);
    await queue.obliterate({ force: true });
    await queue.close();
    await pool.query(`DROP SCHEMA "${schema}" CASCADE`);
    await pool.end();
  });
  const cli = async (args: string[], extraEnv: Record<string, string> = {}) => {
    const started = await spawnCli(
      [...args, '--queue', TEST_REDIS, '--queue-name', queueName, '--pg', TEST_PG, '--pg-schema', schema],
      { ...env, ...extraEnv },
    );
    processes.push(started);
    return started;
  };
  // Dead workers' steps are taken over within about 2.5 s.
  const worker = (options: { concurrency: number; env?: Record<string, string> }) =>
    cli(
      [
        'worker',
        '--config',
        CONFIG,
        '--concurrency',
        String(options.concurrency),
        '--lock-duration',
        '2000',
        '--stalled-interval',
        '500',
      ],
      options.env,
    );
  return { schema, pool, store, steps, worker, cli };
}

/** The most intervals open at one moment (an end at the same instant as a start counts first). */
function maxOverlap(intervals: { start: number; end: number }[]): number {
  const points = intervals.flatMap((i) => [
    { at: i.start, d: 1 },
    { at: i.end, d: -1 },
  ]);
  points.sort((a, b) => a.at - b.at || a.d - b.d);
  let open = 0;
  let most = 0;
  for (const p of points) {
    open += p.d;
    most = Math.max(most, open);
  }
  return most;
}

describe('workflow steps on queue workers (BullMQ on Redis, checkpoints in PostgreSQL)', () => {
  it('runs a foreach over 200 items (concurrency 8) on two workers, one killed -9 mid-way: every item done once', async () => {
    const c = await cluster();
    // `doomed` completes 10 items and then holds every item it takes without completing it.
    const [doomed] = await Promise.all([
      c.worker({ concurrency: 8, env: { WFQ_HANG_AFTER: '10' } }),
      c.worker({ concurrency: 8 }),
    ]);
    const input = Array.from({ length: 200 }, (_, i) => i);
    const runId = uniqueName('items');
    const running = items.run(input, { store: c.store, dispatch: c.steps.dispatch, runId });
    const pid = doomed.child.pid!;
    await eventually(async () => {
      const { rows } = await c.pool.query<{ item: number; ended: Date | null }>(
        `SELECT item, ended FROM "${c.schema}".executions WHERE pid = $1`,
        [pid],
      );
      const completed = rows.filter((r) => r.ended);
      if (completed.length < 10 || completed.length === rows.length) return undefined;
      // Killed once its completed items are checkpointed: the steps it holds are mid-way, none between.
      const saved = await c.store.loadSteps(runId);
      return completed.every((r) => saved[`0.work[${r.item}]`]?.status === 'done') ? true : undefined;
    }, 40_000);
    await doomed.kill('SIGKILL');
    const killedAt = (await c.pool.query<{ now: Date }>('SELECT clock_timestamp() AS now')).rows[0]!.now.getTime();

    const result = await running;
    expect(result.error).toBeUndefined();
    expect(result.status).toBe('done');
    expect(result.output).toEqual(input.map((i) => i * 2));
    const saved = await c.store.loadSteps(runId);
    const checkpoints = Object.entries(saved).filter(([path]) => /^0\.work\[\d+\]$/.test(path));
    expect(checkpoints).toHaveLength(200);
    expect(checkpoints.every(([, r]) => r.status === 'done')).toBe(true);

    const { rows } = await c.pool.query<{ item: number; pid: number; started: Date; ended: Date | null }>(
      `SELECT item, pid, started, ended FROM "${c.schema}".executions`,
    );
    // Each item's completion side effect happened once, however many times its step started.
    const completions = new Map<number, number>();
    for (const r of rows.filter((r) => r.ended)) completions.set(r.item, (completions.get(r.item) ?? 0) + 1);
    expect([...completions.keys()].sort((a, b) => a - b)).toEqual(input);
    expect([...completions.values()].every((n) => n === 1)).toBe(true);
    // The killed worker held steps mid-way; another worker ran each of them again to completion.
    const abandoned = rows.filter((r) => r.pid === pid && !r.ended);
    expect(abandoned.length).toBeGreaterThan(0);
    for (const r of abandoned) expect(rows.some((o) => o.item === r.item && o.ended && o.pid !== pid)).toBe(true);
    // At most 8 steps ran at once (the killed worker's stopped running when it died), and more than one did.
    const most = maxOverlap(rows.map((r) => ({ start: r.started.getTime(), end: r.ended?.getTime() ?? killedAt })));
    expect(most).toBeLessThanOrEqual(8);
    expect(most).toBeGreaterThan(1);
  }, 90_000);

  it('runs the two branches of a parallel on two workers at once', async () => {
    const c = await cluster();
    // One step at a time each: the second branch cannot wait behind the first on one worker.
    const workers = await Promise.all([c.worker({ concurrency: 1 }), c.worker({ concurrency: 1 })]);
    const result = await pair.run('go', { store: c.store, dispatch: c.steps.dispatch });
    expect(result.error).toBeUndefined();
    const { 'slow-a': a, 'slow-b': b } = result.output as Record<
      'slow-a' | 'slow-b',
      { pid: number; startedAt: number; endedAt: number }
    >;
    expect(new Set([a.pid, b.pid])).toEqual(new Set(workers.map((w) => w.child.pid)));
    expect(a.startedAt < b.endedAt && b.startedAt < a.endedAt).toBe(true);
  }, 90_000);

  it('suspends a step on a worker under `thinkflow serve --queue`, and runs it there again on resume', async () => {
    const c = await cluster();
    const [server, worker] = await Promise.all([
      c.cli(['serve', '--port', '0', '--config', CONFIG, '--data-dir', dir.path]),
      c.worker({ concurrency: 4 }),
    ]);
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      // biome-ignore lint/suspicious/noExplicitAny: the test reads answer fields freely.
      return { status: response.status, json: (await response.json()) as any };
    };
    const started = await post('/v1/workflows/approval/runs?wait=true', { input: 4 });
    expect(started.json.status).toBe('suspended');
    expect(started.json.suspended).toEqual([
      expect.objectContaining({ path: '1.review', payload: { draft: 5, pid: worker.child.pid } }),
    ]);
    const id = started.json.id as string;
    const done = await post(`/v1/runs/${id}/resume?wait=true`, { step: 'review', payload: { by: 'ana' } });
    expect(done.json).toMatchObject({
      status: 'done',
      output: { text: 'draft 5 approved by ana', pid: worker.child.pid },
    });
    expect(worker.child.pid).not.toBe(server.child.pid);
    // The steps' events came from the worker, the run's from the server: each once, in the one log.
    const stream = await fetch(`${server.url}/v1/workflows/runs/${id}/events`);
    const events = parseSse(await stream.text()).map((e) => {
      const event = JSON.parse(e.data) as { type: string; path?: string };
      return event.path ? `${event.type} ${event.path}` : event.type;
    });
    expect(events.sort()).toEqual(
      [
        'workflow_start',
        'step_start 0.draft',
        'step_end 0.draft',
        'step_start 1.review',
        'step_suspended 1.review',
        'workflow_end',
        'workflow_start',
        'step_start 1.review',
        'step_end 1.review',
        'workflow_end',
      ].sort(),
    );
    // The checkpoints are the shared store's, as the worker wrote them.
    expect(await c.store.loadSteps(id)).toMatchObject({
      '0.draft': { status: 'done', output: 5 },
      '1.review': { status: 'done', output: done.json.output },
    });
  }, 90_000);
});
