import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import {
  createApp,
  createQueueRuns,
  createRunWorker,
  PostgresRunStore,
  type RunRecord,
  type RunWorker,
  type ServerLimits,
} from '../../../src/server/index.js';
import { defineTool } from '../../../src/tools/index.js';
import { TEST_PG, TEST_REDIS, uniqueName } from '../pg-fixtures.js';
import { callReply, parseSse, postJson, stepsAgent } from '../server-fixtures.js';
import { eventually } from '../spawn-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An API server and workers that share only Redis and PostgreSQL, each with its own store connection. */
async function cluster(agents: Parameters<typeof createRunWorker>[0]['agents'], limits?: ServerLimits) {
  const schema = uniqueName('tf_queue');
  const location = { redisUrl: TEST_REDIS, queueName: uniqueName('runs'), prefix: uniqueName('tf') };
  const apiStore = new PostgresRunStore({ connectionString: TEST_PG, schema });
  await apiStore.init();
  const runs = createQueueRuns({ ...location, agents: Object.keys(agents), store: apiStore, pollMs: 50, limits });
  const app = createApp({ runs });
  const workers: RunWorker[] = [];
  const workerStores: PostgresRunStore[] = [];
  const addWorker = async () => {
    const store = new PostgresRunStore({ connectionString: TEST_PG, schema });
    workerStores.push(store);
    const worker = createRunWorker({ ...location, agents, store, concurrency: 8, pollMs: 50 });
    workers.push(worker);
    return worker;
  };
  cleanups.push(async () => {
    await Promise.all(workers.map((w) => w.close()));
    await runs.close();
    await apiStore.drop();
    await Promise.all([apiStore, ...workerStores].map((s) => s.close()));
  });
  const request = (path: string, init?: RequestInit) => app.fetch(new Request(`http://localhost${path}`, init));
  return { runs, request, addWorker, workers };
}

describe('queue mode (BullMQ on Redis, state in PostgreSQL)', () => {
  it('runs started on the API server are executed by workers; status and events come from PostgreSQL', async () => {
    const c = await cluster({ steps: stepsAgent() });
    await c.addWorker();
    await c.addWorker();
    const started = await Promise.all(
      Array.from({ length: 20 }, (_, i) => c.request('/v1/agents/steps/runs', postJson({ input: `run ${i}` }))),
    );
    const ids = ((await Promise.all(started.map((r) => r.json()))) as RunRecord[]).map((r) => r.id);
    const ended = await Promise.all(ids.map((id) => c.runs.wait(id, AbortSignal.timeout(30_000))));
    expect(ended.map((r) => r?.status)).toEqual(ids.map(() => 'done'));
    const events = parseSse(await (await c.request(`/v1/runs/${ids[0]}/events`)).text());
    expect(events[0].event).toBe('run_start');
    expect(events.at(-1)?.event).toBe('run_end');
    expect(events.map((e) => Number(e.id))).toEqual(events.map((_, i) => i + 1));
  }, 60_000);

  it('completes 500 runs spread over two workers: none lost, none run twice, every event log whole', async () => {
    const counter = { calls: 0 };
    const c = await cluster({ steps: stepsAgent({ counter }) });
    await c.addWorker();
    await c.addWorker();
    const started = await Promise.all(
      Array.from({ length: 500 }, (_, i) => c.runs.start({ agent: 'steps', input: `run ${i}` })),
    );
    const ids = started.map((s) => (s.ok ? s.run.id : `refused: ${s.reason}`));
    expect(new Set(ids).size).toBe(500);
    const ended = await Promise.all(ids.map((id) => c.runs.wait(id, AbortSignal.timeout(90_000))));
    expect(ended.filter((r) => r?.status === 'done')).toHaveLength(500);
    // Each run's four tool calls ran once: a run executed twice would have called its tools again.
    expect(counter.calls).toBe(500 * 4);
    for (const id of ids.filter((_, i) => i % 10 === 0)) {
      const events = await c.runs.events(id, 0);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(events.filter((e) => e.event.type === 'run_start')).toHaveLength(1);
      expect(events.filter((e) => e.event.type === 'tool_end')).toHaveLength(4);
      expect(events.filter((e) => e.event.type === 'run_end')).toHaveLength(1);
    }
  }, 120_000);

  it('waits on a run just started without polling, and on one already ended without sleeping', async () => {
    const c = await cluster({ steps: stepsAgent() });
    await c.addWorker();
    const start = async () => {
      const started = await c.request('/v1/agents/steps/runs', postJson({ input: 'go' }));
      return ((await started.json()) as RunRecord).id;
    };
    expect((await c.runs.wait(await start(), AbortSignal.timeout(20_000)))?.status).toBe('done');
    const id = await start();
    await eventually(async () => ((await c.runs.get(id))?.status === 'done' ? true : undefined));
    // Its job's end may already have been seen: waiting must read the store at once, not sleep first.
    const t0 = Date.now();
    expect((await c.runs.wait(id))?.status).toBe('done');
    expect(Date.now() - t0).toBeLessThan(500);
  }, 30_000);

  it('answers ?wait=true, approvals and cancels through the shared store', async () => {
    const deploy = defineTool({
      name: 'deploy',
      description: 'Deploys.',
      input: z.object({ service: z.string() }),
      needsApproval: true,
      run: ({ service }) => `deployed ${service}`,
    });
    const c = await cluster({
      ops: () =>
        new Agent({ model: scriptedModel([callReply('c1', 'deploy', { service: 'api' }), 'Done.']), tools: [deploy] }),
      slow: stepsAgent({ delayMs: 10_000 }),
    });
    await c.addWorker();
    const { id } = (await (await c.request('/v1/agents/ops/runs', postJson({ input: 'ship' }))).json()) as RunRecord;
    await eventually(async () => ((await c.runs.get(id))?.status === 'waiting' ? true : undefined), 20_000);
    expect((await c.request(`/v1/runs/${id}/approvals`, postJson({ approved: true }))).status).toBe(200);
    const approved = await c.runs.wait(id, AbortSignal.timeout(20_000));
    expect(approved?.result?.steps[0].toolCalls[0].output).toBe('deployed api');

    const slow = (await (await c.request('/v1/agents/slow/runs', postJson({ input: 'x' }))).json()) as RunRecord;
    await eventually(async () => ((await c.runs.get(slow.id))?.status === 'running' ? true : undefined), 20_000);
    const cancelled = (await (await c.request(`/v1/runs/${slow.id}/cancel`, { method: 'POST' })).json()) as RunRecord;
    expect(cancelled.status).toBe('aborted');
  }, 60_000);

  it('hands a run over when its worker stops mid-run: another worker resumes it from the checkpoint', async () => {
    const counter = { calls: 0 };
    const c = await cluster({ steps: stepsAgent({ counter, delayMs: 150 }) });
    const first = await c.addWorker();
    const { id } = (await (await c.request('/v1/agents/steps/runs', postJson({ input: 'go' }))).json()) as RunRecord;
    await eventually(() => (counter.calls >= 2 ? true : undefined), 20_000);
    await first.close();
    const callsBefore = counter.calls;
    await c.addWorker();
    const run = await c.runs.wait(id, AbortSignal.timeout(30_000));
    expect(run?.status).toBe('done');
    expect(run?.result?.steps).toHaveLength(5);
    // Each of the four echo calls ran exactly once across both workers.
    expect(counter.calls).toBe(4);
    expect(callsBefore).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('limits the queue per agent: a full queue refuses its own agent with 429 and Retry-After, not the others', async () => {
    const c = await cluster(
      { a: stepsAgent({ toolSteps: 1 }), b: stepsAgent({ toolSteps: 1 }) },
      { maxQueuedRuns: 3, retryAfterSeconds: 4, agents: { b: { maxQueuedRuns: 1 } } },
    );
    const start = (agent: string) => c.request(`/v1/agents/${agent}/runs`, postJson({ input: 'go' }));
    // No worker yet: every accepted run stays queued.
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await start('a')).status);
    expect(statuses).toEqual([202, 202, 202]);
    const refused = await start('a');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('4');
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('queue_full');
    // Agent b has a queue of its own (with its own limit of 1).
    const other = await start('b');
    expect(other.status).toBe(202);
    expect((await start('b')).status).toBe(429);

    // Runs a worker took no longer count: a can queue again.
    await c.addWorker();
    const { id } = (await other.json()) as RunRecord;
    expect((await c.runs.wait(id, AbortSignal.timeout(20_000)))?.status).toBe('done');
    await eventually(async () => ((await start('a')).status === 202 ? true : undefined), 20_000);
  }, 60_000);
});
