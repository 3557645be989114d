import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createStep,
  createWorkflow,
  memoryWorkflowStore,
  type StepRecord,
  type WorkflowStore,
} from '../../src/entries/workflow.js';
import type { AgentEvent } from '../../src/index.js';

// The engine runs plain function steps on a store that writes at once without waiting; these check
// that the same run still waits properly for a store or a step that answers later, and that a throw
// at once fails, suspends and cancels as one that came later does.

/** A thenable that is not a Promise, settled on a later timer tick (as a store over the network is). */
function later<T>(settle: () => T): PromiseLike<T> {
  const settled = new Promise<T>((resolve, reject) =>
    setTimeout(() => {
      try {
        resolve(settle());
      } catch (error) {
        reject(error);
      }
    }, 1),
  );
  // A foreign thenable on purpose: the engine must wait for any, not only native promises.
  // biome-ignore lint/suspicious/noThenProperty: the point of this test double
  return { then: (onValue, onError) => settled.then(onValue, onError) };
}

/** The memory store, with every write answered by a foreign thenable a timer tick later, logged. */
function slowStore(log: string[], failPath?: string): WorkflowStore {
  const base = memoryWorkflowStore();
  return {
    ...base,
    local: true,
    createRun: (run, steps) => later(() => base.createRun(run, steps)) as Promise<void>,
    updateRun: (runId, patch) => later(() => base.updateRun(runId, patch)) as Promise<void>,
    claimRun: (runId, lease, expected) => later(() => base.claimRun!(runId, lease, expected)) as Promise<boolean>,
    releaseRun: (runId, holder) => later(() => base.releaseRun!(runId, holder)) as Promise<void>,
    saveStep: (runId: string, path: string, record: StepRecord) =>
      later(() => {
        if (path === failPath) throw new Error(`disk full writing ${path}`);
        log.push(`saved ${path}`);
        return base.saveStep(runId, path, record);
      }) as Promise<void>,
  };
}

const logged = (log: string[], id: string, run: (n: number) => number | Promise<number>) =>
  createStep({
    id,
    input: z.number(),
    output: z.number(),
    run: (n) => {
      log.push(`run ${id}`);
      return run(n);
    },
  });

describe('workflow engine, answers at once and later', () => {
  it('waits for each checkpoint a store answers later, before the next step runs', async () => {
    const log: string[] = [];
    const flow = createWorkflow({ id: 'slow', input: z.number(), output: z.number() })
      .then(logged(log, 'a', (n) => n + 1))
      .then(logged(log, 'b', async (n) => n * 2))
      .then(logged(log, 'c', (n) => n - 3))
      .commit();
    const store = slowStore(log);
    const result = await flow.run(1, { store });
    expect(result).toMatchObject({ status: 'done', output: 1 });
    expect(log).toEqual(['run a', 'saved 0.a', 'run b', 'saved 1.b', 'run c', 'saved 2.c']);
    expect((await store.getRun(result.runId))?.status).toBe('done');
  });

  it('a checkpoint the store refuses fails the step (step_end ok: false) and the run, and nothing after it runs', async () => {
    const log: string[] = [];
    const events: AgentEvent[] = [];
    const flow = createWorkflow({ id: 'refused', input: z.number(), output: z.number() })
      .then(logged(log, 'a', (n) => n + 1))
      .then(logged(log, 'b', (n) => n + 1))
      .commit();
    const result = await flow.run(1, { store: slowStore(log, '0.a'), onEvent: (e) => events.push(e) });
    expect(result).toMatchObject({
      status: 'failed',
      error: { code: 'step_failed', message: 'disk full writing 0.a' },
    });
    expect(log).toEqual(['run a']);
    expect(events.filter((e) => e.type === 'step_end')).toMatchObject([{ stepId: 'a', ok: false }]);
  });

  it('a plain step that throws, or returns a refused output, fails the run with its own message and keeps what was done', async () => {
    for (const [bad, code, message] of [
      [
        () => {
          throw new Error('boom');
        },
        'step_failed',
        /^boom$/,
      ],
      [() => -1, 'invalid_step_value', /Step "bad" \(1\.bad\) returned an output its schema refuses/],
    ] as const) {
      const store = memoryWorkflowStore();
      const events: AgentEvent[] = [];
      const flow = createWorkflow({ id: 'throws', input: z.number(), output: z.number() })
        .then(createStep({ id: 'ok', input: z.number(), output: z.number(), run: (n) => n + 1 }))
        .then(createStep({ id: 'bad', input: z.number(), output: z.number().min(0), run: bad }))
        .commit();
      const result = await flow.run(1, { store, onEvent: (e) => events.push(e) });
      expect(result.status).toBe('failed');
      expect(result.error?.code).toBe(code);
      expect(result.error?.message).toMatch(message);
      expect(Object.keys(await store.loadSteps(result.runId))).toEqual(['0.ok']);
      expect(events.map((e) => e.type)).toEqual([
        'workflow_start',
        'step_start',
        'step_end',
        'step_start',
        'step_end',
        'workflow_end',
      ]);
      expect(events[4]).toMatchObject({ type: 'step_end', stepId: 'bad', ok: false });
    }
  });

  it('a step refusing its input at once inside a parallel lets its sibling finish and save first', async () => {
    const store = memoryWorkflowStore();
    const slow = createStep({
      id: 'slow',
      input: z.number(),
      output: z.number(),
      run: async (n) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return n;
      },
    });
    const picky = createStep({ id: 'picky', input: z.number().max(0), output: z.number(), run: (n) => n });
    const flow = createWorkflow({ id: 'par', input: z.number(), output: z.unknown() }).parallel([slow, picky]).commit();
    const result = await flow.run(5, { store });
    expect(result.status).toBe('failed');
    expect(result.error?.message).toMatch(/Step "picky" \(0\.picky\) cannot take the input of workflow "par"/);
    expect(Object.keys(await store.loadSteps(result.runId))).toEqual(['0.slow']);
  });

  it('a nested workflow of plain steps and a suspend at once resume as before', async () => {
    const ask = createStep({
      id: 'ask',
      input: z.number(),
      output: z.number(),
      resumeSchema: z.number(),
      run: (n, ctx) => (ctx.resumeData === undefined ? ctx.suspend({ asked: n }) : n + ctx.resumeData),
    });
    const inner = createWorkflow({ id: 'inner', input: z.number(), output: z.number() })
      .then(createStep({ id: 'up', input: z.number(), output: z.number(), run: (n) => n + 1 }))
      .then(ask)
      .commit();
    const outer = createWorkflow({ id: 'outer', input: z.number(), output: z.number() })
      .then(inner)
      .then(createStep({ id: 'twice', input: z.number(), output: z.number(), run: (n) => n * 2 }))
      .commit();
    const store = memoryWorkflowStore();
    const first = await outer.run(1, { store });
    expect(first).toMatchObject({ status: 'suspended', suspended: [{ stepId: 'ask', payload: { asked: 2 } }] });
    const done = await outer.resume(first.runId, { step: 'ask', payload: 10 }, { store });
    expect(done).toMatchObject({ status: 'done', output: 24 });
  });

  it('gives a step a signal that aborts on cancel, and a context it may take apart', async () => {
    const store = memoryWorkflowStore();
    let heard: unknown;
    let entered!: () => void;
    const inStep = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const listening = createStep({
      id: 'listening',
      input: z.number(),
      output: z.number(),
      run: (_n, { signal, addUsage, path }) => {
        addUsage({ promptTokens: 3, completionTokens: 4, llmCalls: 1 });
        expect(path).toBe('1.listening');
        return new Promise<number>((_, reject) => {
          signal.addEventListener('abort', () => {
            heard = signal.reason;
            reject(signal.reason);
          });
          entered();
        });
      },
    });
    const flow = createWorkflow({ id: 'listen', input: z.number(), output: z.number() })
      .then(createStep({ id: 'first', input: z.number(), output: z.number(), run: (n) => n }))
      .then(listening)
      .commit();
    const running = flow.run(1, { store, runId: 'listen-1' });
    await inStep;
    expect(await flow.cancel('listen-1', { store })).toBe('running');
    const result = await running;
    expect(result).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
    expect(String(heard)).toMatch(/Run "listen-1" was cancelled/);
  });

  it("a caller's signal aborted before a plain step stops the run there", async () => {
    const controller = new AbortController();
    const ran: string[] = [];
    const flow = createWorkflow({ id: 'own', input: z.number(), output: z.number() })
      .then(
        createStep({
          id: 'a',
          input: z.number(),
          output: z.number(),
          run: (n) => {
            ran.push('a');
            controller.abort(new Error('caller gave up'));
            return n;
          },
        }),
      )
      .then(
        createStep({
          id: 'b',
          input: z.number(),
          output: z.number(),
          run: (n) => {
            ran.push('b');
            return n;
          },
        }),
      )
      .commit();
    const result = await flow.run(1, { signal: controller.signal });
    expect(result).toMatchObject({ status: 'cancelled', error: { code: 'aborted', message: 'caller gave up' } });
    expect(ran).toEqual(['a']);
  });
});
