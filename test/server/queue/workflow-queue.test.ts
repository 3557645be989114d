import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createStep, createWorkflow } from '../../../src/entries/workflow.js';
import { Agent, scriptedModel } from '../../../src/index.js';
import { createWorkflowWorker, queueStepDispatch, type StepQueue } from '../../../src/server/index.js';
import { loadBullmq, stepQueueSettings } from '../../../src/server/queue/queue-names.js';
import { stepJobId } from '../../../src/server/queue/queue-step-dispatch.js';
import { postgresWorkflowStore, type Workflow, type WorkflowStore } from '../../../src/workflow/index.js';
import { TEST_PG, TEST_REDIS, uniqueName } from '../pg-fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A fresh PostgreSQL schema and step queue; engines (dispatchers) and workers in this process on them. */
function cluster() {
  const schema = uniqueName('tf_wfq');
  const location = { redisUrl: TEST_REDIS, queueName: uniqueName('wfq') };
  const stores: WorkflowStore[] = [];
  const openStore = () => {
    const store = postgresWorkflowStore({ connectionString: TEST_PG, schema });
    stores.push(store);
    return store;
  };
  const store = openStore();
  const closers: (() => Promise<void>)[] = [];
  // The workers report failed steps here (the runs carry the same messages).
  const errors: unknown[] = [];
  const dispatcher = (): StepQueue => {
    const steps = queueStepDispatch({ ...location, recheckMs: 500 });
    closers.push(steps.close);
    return steps;
  };
  const worker = (workflows: Workflow[]) => {
    const started = createWorkflowWorker({
      ...location,
      workflows,
      store: openStore(),
      lockDurationMs: 2000,
      onError: (error) => errors.push(error),
    });
    closers.push(started.close);
    return started;
  };
  cleanups.push(async () => {
    for (const close of closers.reverse()) await close();
    const settings = stepQueueSettings(location);
    const queue = new (loadBullmq().Queue)(settings.name, settings.options);
    await queue.obliterate({ force: true });
    await queue.close();
    const pg = (await import('pg')).default;
    const pool = new pg.Pool({ connectionString: TEST_PG, max: 1 });
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
    for (const s of stores) await s.close?.();
  });
  /** The checkpoint paths of the step jobs that went through the queue. */
  const jobPaths = async () => {
    const settings = stepQueueSettings(location);
    const queue = new (loadBullmq().Queue)(settings.name, settings.options);
    const jobs = await queue.getJobs(['completed', 'failed']);
    await queue.close();
    return jobs.map((job) => (job.data as { path: string }).path).sort();
  };
  const queue = () => {
    const settings = stepQueueSettings(location);
    const opened = new (loadBullmq().Queue)(settings.name, settings.options);
    closers.push(() => opened.close());
    return opened;
  };
  return { store, dispatcher, worker, jobPaths, queue };
}

function counted(id: string, run: (n: number) => number | Promise<number>) {
  const calls = { n: 0 };
  const step = createStep({
    id,
    input: z.number(),
    output: z.number(),
    run: (n) => {
      calls.n++;
      return run(n);
    },
  });
  return { step, calls };
}

describe('workflow steps through the step queue', () => {
  it('answers a job for a step already done in the store with its checkpoint, without running it again', async () => {
    const c = cluster();
    const { step, calls } = counted('bump', (n) => n + 1);
    const flow = createWorkflow({ id: 'bump', input: z.number(), output: z.number() }).then(step).commit();
    c.worker([flow]);
    const steps = c.dispatcher();
    // As after a worker died between its commit and the job's end: the job comes again.
    await c.store.saveStep('r1', '0.bump', { status: 'done', output: 42 });
    const job = {
      runId: 'r1',
      workflowId: 'bump',
      definitionHash: flow.definitionHash,
      path: '0.bump',
      stepId: 'bump',
    };
    const again = await steps.dispatch({ ...job, input: 1, step: 0 }, AbortSignal.timeout(20_000));
    expect(again.record).toEqual({ status: 'done', output: 42 });
    expect(calls.n).toBe(0);
    const fresh = await steps.dispatch({ ...job, runId: 'r2', input: 1, step: 0 }, AbortSignal.timeout(20_000));
    expect(fresh.record).toMatchObject({ status: 'done', output: 2 });
    expect(calls.n).toBe(1);
    expect(await c.store.loadSteps('r2')).toMatchObject({ '0.bump': { status: 'done', output: 2 } });
  }, 30_000);

  it('lets an engine that dispatches a step again (after a restart) wait on the job already out, not add a second', async () => {
    const c = cluster();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { step, calls } = counted('wait', async (n) => {
      await gate;
      return n * 10;
    });
    const flow = createWorkflow({ id: 'gated', input: z.number(), output: z.number() }).then(step).commit();
    c.worker([flow]);
    const job = {
      runId: 'r1',
      workflowId: 'gated',
      definitionHash: flow.definitionHash,
      path: '0.wait',
      stepId: 'wait',
      input: 3,
      step: 0,
    };
    const first = c.dispatcher().dispatch(job, AbortSignal.timeout(20_000));
    while (calls.n === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const second = c.dispatcher().dispatch(job, AbortSignal.timeout(20_000));
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(a.record).toMatchObject({ status: 'done', output: 30 });
    expect(b.record).toEqual(a.record);
    expect(calls.n).toBe(1);
  }, 30_000);

  it("fails the run with a throwing step's message after one attempt, and a resume runs it again", async () => {
    const c = cluster();
    let fail = true;
    const { step, calls } = counted('flaky', (n) => {
      if (fail) throw new Error('the upstream said no');
      return n;
    });
    const flow = createWorkflow({ id: 'flaky', input: z.number(), output: z.number() }).then(step).commit();
    c.worker([flow]);
    const { dispatch } = c.dispatcher();
    const failed = await flow.run(7, { store: c.store, dispatch, runId: 'f1' });
    expect(failed).toMatchObject({ status: 'failed', error: { message: 'the upstream said no' } });
    expect(calls.n).toBe(1);
    fail = false;
    const resumed = await flow.resume('f1', {}, { store: c.store, dispatch });
    expect(resumed).toMatchObject({ status: 'done', output: 7 });
    expect(calls.n).toBe(2);
  }, 30_000);

  it('fails the run with invalid_step_value for an output the step schema refuses on the worker, as in process', async () => {
    const c = cluster();
    const negative = createStep({ id: 'negative', input: z.number(), output: z.number().min(0), run: (n) => -n });
    const flow = createWorkflow({ id: 'refusing', input: z.number(), output: z.number() }).then(negative).commit();
    c.worker([flow]);
    const queued = await flow.run(3, { store: c.store, dispatch: c.dispatcher().dispatch });
    const local = await flow.run(3);
    expect(queued).toMatchObject({ status: 'failed', error: { code: 'invalid_step_value' } });
    expect(queued.error).toEqual(local.error);
    expect(queued.error?.message).toMatch(/Step "negative" \(0\.negative\) returned an output its schema refuses/);
    expect((await c.store.getRun(queued.runId))?.error).toEqual(local.error);
  }, 30_000);

  it('sends the leaf steps of nested workflows, loops and branches to the worker; the engine keeps the rest', async () => {
    const c = cluster();
    const double = createStep({ id: 'double', input: z.number(), output: z.number(), run: (n) => n * 2 });
    const inc = createStep({ id: 'inc', input: z.number(), output: z.number(), run: (n) => n + 1 });
    const big = createStep({ id: 'big', input: z.number(), output: z.string(), run: (n) => `big ${n}` });
    const small = createStep({ id: 'small', input: z.number(), output: z.string(), run: (n) => `small ${n}` });
    const inner = createWorkflow({ id: 'inner', input: z.number(), output: z.number() }).then(double).commit();
    const flow = createWorkflow({ id: 'shapes', input: z.number(), output: z.object({ big: z.string().optional() }) })
      .then(inner)
      .dountil(inc, (n) => n >= 5)
      .branch([
        [(n) => n > 4, big],
        [(n) => n <= 4, small],
      ])
      .commit();
    c.worker([flow]);
    const result = await flow.run(1, { store: c.store, dispatch: c.dispatcher().dispatch });
    expect(result).toMatchObject({ status: 'done', output: { big: 'big 5' } });
    expect(await c.jobPaths()).toEqual(['0.inner/0.double', '1.inc#0', '1.inc#1', '1.inc#2', '2.big']);
  }, 30_000);

  it('takes back a job no worker started when the run is cancelled, and adds again one that Redis lost', async () => {
    const c = cluster();
    const { step, calls } = counted('echo', (n) => n);
    const flow = createWorkflow({ id: 'echo', input: z.number(), output: z.number() }).then(step).commit();
    const steps = c.dispatcher();
    const queue = c.queue();
    const job = {
      runId: 'r1',
      workflowId: 'echo',
      definitionHash: flow.definitionHash,
      path: '0.echo',
      stepId: 'echo',
    };
    const state = (runId: string) => queue.getJobState(stepJobId({ runId, path: job.path }));
    const until = async (check: () => Promise<boolean>) => {
      while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    // No worker yet: the jobs wait in Redis.
    const cancel = new AbortController();
    const cancelled = steps.dispatch({ ...job, runId: 'gone', input: 6, step: 0 }, cancel.signal);
    await until(async () => (await state('gone')) === 'waiting');
    cancel.abort(new Error('cancelled by the caller'));
    await expect(cancelled).rejects.toThrow('cancelled by the caller');
    await until(async () => (await state('gone')) === 'unknown');
    // This one goes as a Redis restart without persistence would lose it.
    const waited = steps.dispatch({ ...job, input: 5, step: 0 }, AbortSignal.timeout(20_000));
    await until(async () => (await state('r1')) === 'waiting');
    await queue.remove(stepJobId(job));
    expect(await state('r1')).toBe('unknown');
    c.worker([flow]);
    expect((await waited).record).toMatchObject({ status: 'done', output: 5 });
    expect(calls.n).toBe(1);
    expect(await c.store.loadSteps('gone')).toEqual({});
  }, 30_000);

  it("runs an agent step on the worker: its answer, its usage summed into the run's, its events in the store", async () => {
    const c = cluster();
    const model = scriptedModel([{ text: 'Final Answer: forty-two', usage: { promptTokens: 7, completionTokens: 3 } }]);
    const agent = new Agent({ name: 'writer', model, protocol: 'react' });
    const flow = createWorkflow({ id: 'asks', input: z.string(), output: z.unknown() }).then(agent).commit();
    c.worker([flow]);
    const result = await flow.run('Six times seven?', { store: c.store, dispatch: c.dispatcher().dispatch });
    expect(result).toMatchObject({ status: 'done', output: 'forty-two' });
    expect(result.usage).toMatchObject({ promptTokens: 7, completionTokens: 3, llmCalls: 1 });
    const events = (await c.store.readEvents!(result.runId, 0)).map((e) => e.event);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['step_start', 'run_start', 'final', 'step_end']));
    expect(events.find((e) => e.type === 'run_start')?.parentRunId).toBe(result.runId);
  }, 30_000);

  it('refuses a step job sent under another definition of the workflow, with an error naming both', async () => {
    const c = cluster();
    const a = createStep({ id: 'a', input: z.number(), output: z.number(), run: (n) => n });
    const b = createStep({ id: 'b', input: z.number(), output: z.number(), run: (n) => n });
    const deployed = createWorkflow({ id: 'versioned', input: z.number(), output: z.number() }).then(a).commit();
    const changed = createWorkflow({ id: 'versioned', input: z.number(), output: z.number() }).then(a).then(b).commit();
    c.worker([deployed]);
    const result = await changed.run(1, { store: c.store, dispatch: c.dispatcher().dispatch });
    expect(result.status).toBe('failed');
    expect(result.error?.message).toContain(`under definition ${changed.definitionHash}`);
    expect(result.error?.message).toContain(`this worker has ${deployed.definitionHash}`);
  }, 30_000);
});
