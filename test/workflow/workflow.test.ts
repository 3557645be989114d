import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sqliteWorkflowStore } from '../../src/entries/sqlite.js';
import { createStep, createWorkflow, memoryWorkflowStore, WorkflowRequestError } from '../../src/entries/workflow.js';
import { Agent, type AgentEvent, scriptedModel } from '../../src/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function dbFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'thinkflow-wf-'));
  dirs.push(dir);
  return join(dir, 'wf.db');
}

const double = createStep({ id: 'double', input: z.number(), output: z.number(), run: (n) => n * 2 });
const inc = createStep({ id: 'inc', input: z.number(), output: z.number(), run: (n) => n + 1 });
const show = createStep({ id: 'show', input: z.number(), output: z.string(), run: (n) => `n=${n}` });

describe('workflows', () => {
  it('runs steps in order, each on the previous output, and checkpoints each output by path', async () => {
    const flow = createWorkflow({ id: 'linear', input: z.number(), output: z.string() })
      .then(double)
      .then(inc)
      .then(show)
      .commit();
    const events: AgentEvent[] = [];
    const result = await flow.run(4, { onEvent: (e) => events.push(e) });
    expect(result.status).toBe('done');
    expect(result.output).toBe('n=9');
    expect(result.steps['0.double']).toMatchObject({ status: 'done', output: 8 });
    expect(events.map((e) => e.type)).toEqual([
      'workflow_start',
      ...['step_start', 'step_end', 'step_start', 'step_end', 'step_start', 'step_end'],
      'workflow_end',
    ]);
  });

  it('fails with an error naming both steps when a value does not fit the next step', async () => {
    const loose = createStep({ id: 'loose', input: z.number(), output: z.unknown(), run: () => 'not a number' });
    const flow = createWorkflow({ id: 'mismatch', input: z.number(), output: z.number() })
      .then(loose)
      .then(double as never)
      .commit();
    const result = await flow.run(1);
    expect(result.status).toBe('failed');
    expect(result.error?.message).toMatch(/Step "double" .* cannot take the output of step "loose"/);
  });

  it('merges parallel outputs by step id, runs only the branches whose condition holds, and maps foreach in order', async () => {
    let running = 0;
    let peak = 0;
    const slow = createStep({
      id: 'slow',
      input: z.number(),
      output: z.number(),
      run: async (n) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        return n * 10;
      },
    });
    const flow = createWorkflow({ id: 'shapes', input: z.number(), output: z.unknown() })
      .parallel([double, inc])
      .then(
        createStep({
          id: 'sum',
          input: z.object({ double: z.number(), inc: z.number() }),
          output: z.number(),
          run: (v) => v.double + v.inc,
        }),
      )
      .branch([
        [(n) => n > 100, show],
        [(n) => n <= 100, inc],
      ])
      .then(
        createStep({
          id: 'list',
          input: z.object({ inc: z.number().optional() }),
          output: z.array(z.number()),
          run: (v) => [v.inc ?? 0, 1, 2, 3],
        }),
      )
      .foreach(slow, { concurrency: 2 })
      .commit();
    const result = await flow.run(3);
    expect(result.status).toBe('done');
    expect(result.steps['0.double']).toMatchObject({ output: 6 });
    expect(result.output).toEqual([110, 10, 20, 30]);
    expect(peak).toBe(2);
  });

  it('loops with dowhile and dountil on the step own output', async () => {
    const flow = createWorkflow({ id: 'loops', input: z.number(), output: z.number() })
      .dowhile(inc, (n) => n < 5)
      .dountil(double, (n) => n > 40)
      .commit();
    const result = await flow.run(0);
    expect(result.output).toBe(80);
    expect(Object.keys(result.steps).filter((p) => p.startsWith('0.'))).toHaveLength(5);
  });

  it('suspends at a human-input step and resumes it with a payload its schema checks', async () => {
    const review = createStep({
      id: 'review',
      input: z.string(),
      output: z.string(),
      resumeSchema: z.object({ approved: z.boolean() }),
      run: (draft, ctx) => {
        if (!ctx.resumeData) ctx.suspend({ draft });
        return ctx.resumeData!.approved ? `sent: ${draft}` : 'dropped';
      },
    });
    const store = memoryWorkflowStore();
    const flow = createWorkflow({ id: 'review', input: z.string(), output: z.string() }).then(review).commit();
    const first = await flow.run('hello', { store });
    expect(first.status).toBe('suspended');
    expect(first.suspended).toEqual([{ path: '0.review', stepId: 'review', payload: { draft: 'hello' } }]);
    await expect(flow.resume(first.runId, { step: 'review', payload: { approved: 'yes' } }, { store })).rejects.toThrow(
      WorkflowRequestError,
    );
    expect((await store.getRun(first.runId))?.status).toBe('suspended');
    const done = await flow.resume(first.runId, { step: 'review', payload: { approved: true } }, { store });
    expect(done).toMatchObject({ status: 'done', output: 'sent: hello' });
  });

  it('waitForEvent suspends until a typed payload arrives; a bad payload leaves the run waiting', async () => {
    const store = memoryWorkflowStore();
    const flow = createWorkflow({ id: 'events', input: z.number(), output: z.string() })
      .waitForEvent('paid', z.object({ amount: z.number() }))
      .then(
        createStep({
          id: 'receipt',
          input: z.object({ amount: z.number() }),
          output: z.string(),
          run: (p) => `paid ${p.amount}`,
        }),
      )
      .commit();
    const first = await flow.run(1, { store });
    expect(first.suspended).toEqual([{ path: '0.event', stepId: 'paid', event: 'paid' }]);
    const bad = flow.resume(first.runId, { event: 'paid', payload: { amount: 'ten' } }, { store });
    await expect(bad).rejects.toMatchObject({ code: 'invalid_payload' });
    await expect(flow.resume(first.runId, { event: 'shipped', payload: {} }, { store })).rejects.toThrow(
      /waits for event "paid"/,
    );
    const events: AgentEvent[] = [];
    const done = await flow.resume(
      first.runId,
      { event: 'paid', payload: { amount: 10 } },
      { store, onEvent: (e) => events.push(e) },
    );
    expect(done).toMatchObject({ status: 'done', output: 'paid 10' });
    // The delivered event ends its wait on the stream, before the next step starts.
    expect(events.map((e) => `${e.type}${'path' in e ? ` ${e.path}` : ''}`)).toEqual([
      'workflow_start',
      'step_end 0.event',
      'step_start 1.receipt',
      'step_end 1.receipt',
      'workflow_end',
    ]);
    expect(events[1]).toMatchObject({ ok: true, output: { amount: 10 }, stepId: 'paid' });
  });

  it('a workflow suspended three levels deep resumes after a restart, and every parent continues', async () => {
    const file = dbFile();
    let ran = { before: 0, after: 0 };
    const build = () => {
      const gate = createStep({
        id: 'gate',
        input: z.number(),
        output: z.number(),
        resumeSchema: z.number(),
        run: (n, ctx) => (ctx.resumeData === undefined ? ctx.suspend('need a number') : n + ctx.resumeData),
      });
      const counted = (id: string, key: 'before' | 'after') =>
        createStep({
          id,
          input: z.number(),
          output: z.number(),
          run: (n) => {
            ran[key]++;
            return n;
          },
        });
      const inner = createWorkflow({ id: 'inner', input: z.number(), output: z.number() }).then(gate).commit();
      const middle = createWorkflow({ id: 'middle', input: z.number(), output: z.number() })
        .then(inner)
        .then(counted('m_after', 'after'))
        .commit();
      return createWorkflow({ id: 'outer', input: z.number(), output: z.number() })
        .then(counted('o_before', 'before'))
        .then(middle)
        .then(counted('o_after', 'after'))
        .commit();
    };
    const store = sqliteWorkflowStore({ file });
    const first = await build().run(1, { store });
    expect(first.status).toBe('suspended');
    expect(first.suspended[0]!.path).toBe('1.middle/0.inner/0.gate');
    store.close?.();
    ran = { before: 0, after: 0 };
    // A new process: a fresh definition object and a fresh store on the same file.
    const again = sqliteWorkflowStore({ file });
    const done = await build().resume(first.runId, { step: 'gate', payload: 41 }, { store: again });
    again.close?.();
    expect(done).toMatchObject({ status: 'done', output: 42 });
    expect(ran).toEqual({ before: 0, after: 2 });
  });

  it('refuses to resume under a changed definition unless it declares a migrate for the old hash', async () => {
    const store = memoryWorkflowStore();
    const hold = createStep({
      id: 'hold',
      input: z.number(),
      output: z.number(),
      resumeSchema: z.literal('go'),
      run: (n, ctx) => (ctx.resumeData ? n : ctx.suspend()),
    });
    const v1 = createWorkflow({ id: 'versioned', input: z.number(), output: z.number() }).then(hold).commit();
    const first = await v1.run(5, { store });
    const v2 = createWorkflow({ id: 'versioned', input: z.number(), output: z.number() }).then(inc).then(hold).commit();
    expect(v2.definitionHash).not.toBe(v1.definitionHash);
    await expect(v2.resume(first.runId, { step: 'hold', payload: 'go' }, { store })).rejects.toMatchObject({
      code: 'definition_changed',
    });
    const v2m = createWorkflow({
      id: 'versioned',
      input: z.number(),
      output: z.number(),
      migrate: {
        [v1.definitionHash]: (steps) => ({ '0.inc': { status: 'done', output: 5 }, '1.hold': steps['0.hold']! }),
      },
    })
      .then(inc)
      .then(hold)
      .commit();
    expect(await v2m.resume(first.runId, { step: 'hold', payload: 'go' }, { store })).toMatchObject({
      status: 'done',
      output: 5,
    });
  });

  it('fork reuses every output before the fork point and runs again from there, with edited input', async () => {
    const counts: Record<string, number> = {};
    const counted = (id: string, f: (n: number) => number) =>
      createStep({
        id,
        input: z.number(),
        output: z.number(),
        run: (n) => {
          counts[id] = (counts[id] ?? 0) + 1;
          return f(n);
        },
      });
    const store = memoryWorkflowStore();
    const flow = createWorkflow({ id: 'forkable', input: z.number(), output: z.number() })
      .then(counted('a', (n) => n + 1))
      .then(counted('b', (n) => n * 2))
      .then(counted('c', (n) => n - 3))
      .commit();
    const first = await flow.run(1, { store });
    expect(first.output).toBe(1);
    const fork = await flow.fork(first.runId, { fromStep: 'b', input: 10 }, { store });
    expect(fork).toMatchObject({ status: 'done', output: 17 });
    expect(fork.runId).not.toBe(first.runId);
    expect(counts).toEqual({ a: 1, b: 2, c: 2 });
    expect((await store.getRun(fork.runId))?.forkedFrom).toEqual({ runId: first.runId, fromStep: 'b' });
  });

  it('an agent is a step, and the run sums its usage', async () => {
    const model = scriptedModel([{ text: 'Final Answer: forty-two', usage: { promptTokens: 7, completionTokens: 3 } }]);
    const agent = new Agent({ name: 'writer', model, protocol: 'react' });
    const flow = createWorkflow({ id: 'with-agent', input: z.string(), output: z.unknown() }).then(agent).commit();
    const events: AgentEvent[] = [];
    const result = await flow.run('What is six times seven?', { onEvent: (e) => events.push(e) });
    expect(result).toMatchObject({ status: 'done', output: 'forty-two' });
    expect(result.usage).toMatchObject({ promptTokens: 7, completionTokens: 3, llmCalls: 1 });
    const runStart = events.find((e) => e.type === 'run_start');
    expect(runStart?.parentRunId).toBe(result.runId);
  });

  it('a run whose signal aborts ends cancelled and keeps its checkpoints; a resume is refused', async () => {
    const store = memoryWorkflowStore();
    const controller = new AbortController();
    let naps = 0;
    const flow = createWorkflow({ id: 'sleepy', input: z.number(), output: z.number() })
      .then(inc)
      .sleep(60_000)
      .then(
        createStep({
          id: 'after',
          input: z.number(),
          output: z.number(),
          run: (n) => {
            naps++;
            return n;
          },
        }),
      )
      .commit();
    const running = flow.run(1, { store, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const result = await running;
    expect(result.status).toBe('cancelled');
    const wake = (await store.loadSteps(result.runId))['1.sleep'];
    expect(wake).toMatchObject({ status: 'marker' });
    expect(naps).toBe(0);
    await expect(flow.resume(result.runId, {}, { store })).rejects.toThrow(/is cancelled; fork it/);
  });

  it('cancel stops a run this process carries, even in a step that ignores its signal, and a suspended one', async () => {
    const store = sqliteWorkflowStore({ file: dbFile() });
    let started!: () => void;
    const inStep = new Promise<void>((resolve) => {
      started = resolve;
    });
    const stuck = createStep({
      id: 'stuck',
      input: z.number(),
      output: z.number(),
      run: () => {
        started();
        return new Promise<number>(() => {});
      },
    });
    const ask = createStep({
      id: 'ask',
      input: z.number(),
      output: z.number(),
      run: (n, ctx) => (ctx.resumeData === undefined ? ctx.suspend({ n }) : n),
    });
    const hanging = createWorkflow({ id: 'hanging', input: z.number(), output: z.number() })
      .then(inc)
      .then(stuck)
      .commit();
    const asking = createWorkflow({ id: 'asking', input: z.number(), output: z.number() }).then(ask).commit();
    try {
      const running = hanging.run(1, { store, runId: 'hang-1' });
      await inStep;
      expect(await hanging.cancel('hang-1', { store })).toBe('running');
      const result = await running;
      expect(result).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
      expect(await store.getRun('hang-1')).toMatchObject({ status: 'cancelled' });
      expect(await store.leaseOf?.('hang-1')).toBeUndefined();
      await expect(hanging.cancel('hang-1', { store })).rejects.toMatchObject({ code: 'not_suspended' });

      const waiting = await asking.run(2, { store });
      expect(waiting.status).toBe('suspended');
      expect(await asking.cancel(waiting.runId, { store })).toBe('cancelled');
      expect(await store.getRun(waiting.runId)).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
      await expect(asking.resume(waiting.runId, { step: 'ask', payload: 1 }, { store })).rejects.toThrow(/cancelled/);
      await expect(asking.cancel('no-such-run', { store })).rejects.toMatchObject({ code: 'not_found' });
    } finally {
      store.close?.();
    }
  });
});
