import { describe, expect, it } from 'vitest';
import { Agent, type Checkpoint, scriptedModel } from '../../../src/index.js';
import { calls } from '../helpers.js';
import { counted, until } from './counted-tools.js';

/**
 * A store as the server's are: it keeps the latest checkpoint and serializes it a tick later (a
 * write batch), so what it holds at a "crash" is what a real store would have committed.
 */
function batchingStore() {
  let latest: Checkpoint | undefined;
  const writes: Checkpoint[] = [];
  return {
    onCheckpoint: (checkpoint: Checkpoint) =>
      new Promise<void>((resolve) =>
        setImmediate(() => {
          latest = JSON.parse(JSON.stringify(checkpoint)) as Checkpoint;
          writes.push(latest);
          resolve();
        }),
      ),
    latest: () => latest,
    writes,
  };
}

const threeCalls = () => calls(['lookup', {}], ['charge', {}], ['slow', {}]);

describe('a crash inside a step of several calls', () => {
  it('keeps the calls that ended: never run again, their results reach the model', async () => {
    const store = batchingStore();
    const first = counted();
    const controller = new AbortController();
    const running = new Agent({ model: scriptedModel([threeCalls(), 'never']), tools: first.tools }).run('pay', {
      runId: 'r1',
      signal: controller.signal,
      onCheckpoint: store.onCheckpoint,
    });
    // lookup and charge ended, slow still runs: the "crash" takes what the store holds now.
    await until(() => store.latest()?.pending?.done.length === 2);
    const crashed = store.latest()!;
    controller.abort();
    await running;

    const second = counted();
    second.release();
    const model = scriptedModel(['All paid.']);
    const result = await new Agent({ model, tools: second.tools }).run('pay', { runId: 'r1', resume: crashed });

    expect(result.status).toBe('done');
    expect(second.runs).toEqual({ slow: 1 });
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0].toolCalls.map((c) => c.output)).toEqual(['lookup result', 'charged 42', 'slow result']);
    const sent = JSON.stringify(model.calls[0].messages);
    expect(sent).toContain('charged 42');
    expect(sent).toContain('lookup result');
    expect(sent).not.toContain('interrupted');
  });

  it('a crash after the last call ended but before the next checkpoint runs nothing again', async () => {
    const store = batchingStore();
    const first = counted();
    first.release();
    await new Agent({ model: scriptedModel([threeCalls(), 'done']), tools: first.tools }).run('pay', {
      runId: 'r2',
      onCheckpoint: store.onCheckpoint,
    });
    // The last write of the step: every call ended, the step not yet recorded in a checkpoint.
    const crashed = store.writes.find((c) => c.pending?.done.length === 3);
    expect(crashed?.steps).toHaveLength(0);

    const second = counted();
    const model = scriptedModel(['done again']);
    const result = await new Agent({ model, tools: second.tools }).run('pay', { runId: 'r2', resume: crashed });
    expect(second.runs).toEqual({});
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0].observation).toBe('[lookup] lookup result\n[charge] charged 42\n[slow] slow result');
  });

  it('a pending step already among the steps is not finished twice', async () => {
    const store = batchingStore();
    const first = counted();
    first.release();
    await new Agent({ model: scriptedModel([threeCalls(), 'done']), tools: first.tools }).run('pay', {
      runId: 'r3',
      onCheckpoint: store.onCheckpoint,
    });
    const stepOne = store.writes.at(-1)!;
    // A store that kept an older pending record next to the newer steps.
    const recorded = stepOne.steps[0];
    const pending = { index: 0, raw: recorded.raw, calls: recorded.toolCalls, done: [] };
    const second = counted();
    const result = await new Agent({ model: scriptedModel(['ok']), tools: second.tools }).run('pay', {
      resume: { ...stepOne, pending },
    });
    expect(second.runs).toEqual({});
    expect(result.steps).toHaveLength(2);
  });

  it('a call cut short by an abort (a shutdown) is not recorded as ended: an idempotent one runs again', async () => {
    const store = batchingStore();
    const first = counted();
    const controller = new AbortController();
    const running = new Agent({ model: scriptedModel([threeCalls(), 'never']), tools: first.tools }).run('pay', {
      signal: controller.signal,
      onCheckpoint: store.onCheckpoint,
    });
    await until(() => store.latest()?.pending?.done.length === 2);
    controller.abort();
    expect((await running).status).toBe('aborted');
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.latest()?.pending?.done.map((c) => c.name)).toEqual(['lookup', 'charge']);
  });

  it('a rerun on resume goes through the tool-call guardrails, and a blocked call is recorded as ended', async () => {
    const store = batchingStore();
    const guardrails = {
      toolCall: [
        {
          name: 'no_lookup',
          check: (call: { tool: string }) =>
            call.tool === 'lookup' ? { action: 'block' as const, reason: 'no lookups' } : { action: 'allow' as const },
        },
      ],
    };
    const first = counted();
    const controller = new AbortController();
    const running = new Agent({
      model: scriptedModel([threeCalls(), 'never']),
      tools: first.tools,
      guardrails,
    }).run('pay', { signal: controller.signal, onCheckpoint: store.onCheckpoint });
    await until(() => store.latest()?.pending?.done.length === 2);
    const crashed = store.latest()!;
    controller.abort();
    await running;
    expect(first.runs).toEqual({ charge: 1, slow: 1 });
    expect(crashed.pending?.done.map((c) => c.name)).toEqual(['lookup', 'charge']);

    // A checkpoint written before the guardrail ran: the idempotent lookup is not ended there.
    const early: Checkpoint = { ...crashed, pending: { ...crashed.pending!, done: [] } };
    const second = counted();
    second.release();
    const result = await new Agent({ model: scriptedModel(['ok']), tools: second.tools, guardrails }).run('pay', {
      resume: early,
    });
    expect(second.runs).toEqual({ slow: 1 });
    expect(result.steps[0].toolCalls[0].output).toMatch(/no lookups/);
  });

  it('a failed write of an ended call is not swallowed: the run fails at its next checkpoint', async () => {
    const first = counted();
    first.release();
    const result = await new Agent({ model: scriptedModel([threeCalls(), 'done']), tools: first.tools }).run('pay', {
      onCheckpoint: async (checkpoint) => {
        if (checkpoint.pending?.done.length === 1) throw new Error('disk full');
      },
    });
    expect(result.status).toBe('failed');
    expect(result.error?.message).toBe('disk full');
  });

  it('a crash after the final answer was reached ends the resumed run with it, without asking the model again', async () => {
    const store = batchingStore();
    const first = counted();
    first.release();
    await new Agent({ model: scriptedModel([threeCalls(), 'Paid in full.']), tools: first.tools }).run('pay', {
      runId: 'r5',
      onCheckpoint: store.onCheckpoint,
    });
    await new Promise((resolve) => setImmediate(resolve));
    const crashed = store.latest();
    expect(crashed?.final).toEqual({ answer: 'Paid in full.' });

    const model = scriptedModel(['a different answer']);
    const events: string[] = [];
    const result = await new Agent({ model, tools: counted().tools }).run('pay', {
      runId: 'r5',
      resume: crashed,
      onEvent: (e) => events.push(e.type),
    });
    expect(result).toMatchObject({ status: 'done', output: 'Paid in full.' });
    expect(model.calls).toHaveLength(0);
    expect(result.steps).toHaveLength(2);
    expect(events).not.toContain('final');
  });

  it('a call still waiting for a free slot had not started: it runs after a restart, not reported interrupted', async () => {
    const store = batchingStore();
    const first = counted();
    const controller = new AbortController();
    const step = calls(['slow', {}], ['charge', {}]);
    const running = new Agent({ model: scriptedModel([step, 'never']), tools: first.tools, toolConcurrency: 1 }).run(
      'pay',
      { runId: 'r6', signal: controller.signal, onCheckpoint: store.onCheckpoint },
    );
    await until(() => (store.latest()?.pending?.waiting ?? []).length === 1);
    const crashed = store.latest()!;
    controller.abort();
    await running;
    expect(first.runs).toEqual({ slow: 1 });

    const second = counted();
    second.release();
    const model = scriptedModel(['Paid.']);
    const result = await new Agent({ model, tools: second.tools }).run('pay', { runId: 'r6', resume: crashed });
    expect(second.runs).toEqual({ slow: 1, charge: 1 });
    expect(result.steps[0].toolCalls.map((c) => c.output)).toEqual(['slow result', 'charged 42']);
  });
});
