import { setTimeout as wait } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/tools/tool.js';
import { createToolExecutor } from '../../src/tools/tool-executor.js';
import type { ToolEndRecord, ToolStartRecord } from '../../src/tools/tool-records.js';
import { ToolRegistry } from '../../src/tools/tool-registry.js';

/** Tools that record how many calls run at once, and whether a sequential one ever overlapped. */
function tracked() {
  const state = { running: 0, max: 0, sequentialRunning: false, overlaps: 0 };
  const enter = (sequential: boolean) => {
    if (state.sequentialRunning || (sequential && state.running > 0)) state.overlaps++;
    state.running++;
    state.max = Math.max(state.max, state.running);
    if (sequential) state.sequentialRunning = true;
  };
  const leave = (sequential: boolean) => {
    state.running--;
    if (sequential) state.sequentialRunning = false;
  };
  const make = (name: string, sequential = false) =>
    defineTool({
      name,
      description: name,
      input: z.object({ ms: z.number(), label: z.string().optional() }),
      sequential,
      run: async ({ ms, label }) => {
        enter(sequential);
        await wait(ms);
        leave(sequential);
        return label ?? name;
      },
    });
  return { state, make };
}

describe('createToolExecutor: scheduling', () => {
  it('never runs more calls at once than the concurrency cap', async () => {
    const { state, make } = tracked();
    const executor = createToolExecutor({ registry: new ToolRegistry([make('work')]), concurrency: 3 });
    const calls = Array.from({ length: 10 }, (_, i) => ({ id: `c${i}`, name: 'work', input: { ms: 5 } }));
    const records = await executor.execute(calls);
    expect(records.every((r) => r.ok)).toBe(true);
    expect(state.max).toBe(3);
  });

  it('runs calls of one step concurrently', async () => {
    const { state, make } = tracked();
    const executor = createToolExecutor({ registry: new ToolRegistry([make('work')]) });
    const calls = Array.from({ length: 4 }, (_, i) => ({ id: `c${i}`, name: 'work', input: { ms: 10 } }));
    await executor.execute(calls);
    expect(state.max).toBe(4);
  });

  it('keeps observations in call order although calls finish in another order', async () => {
    const { make } = tracked();
    const executor = createToolExecutor({ registry: new ToolRegistry([make('work')]) });
    const ends: string[] = [];
    const calls = [30, 1, 15].map((ms, i) => ({ id: `c${i}`, name: 'work', input: { ms, label: `L${i}` } }));
    const records = await executor.execute(calls, { onEnd: (r) => ends.push(r.id) });
    expect(records.map((r) => r.output)).toEqual(['L0', 'L1', 'L2']);
    expect(records.map((r) => r.index)).toEqual([0, 1, 2]);
    expect(ends).toEqual(['c1', 'c2', 'c0']);
  });

  it('never runs a sequential tool at the same time as another call', async () => {
    const { state, make } = tracked();
    const registry = new ToolRegistry([make('work'), make('exclusive', true)]);
    const executor = createToolExecutor({ registry, concurrency: 4 });
    const names = ['work', 'work', 'exclusive', 'work', 'exclusive', 'work', 'work'];
    const calls = names.map((name, i) => ({ id: `c${i}`, name, input: { ms: 3 } }));
    const records = await executor.execute(calls);
    expect(records.every((r) => r.ok)).toBe(true);
    expect(state.overlaps).toBe(0);
    expect(state.max).toBeGreaterThan(1);
  });

  it('emits a start record before each tool runs and an end record as each finishes', async () => {
    const log: string[] = [];
    const echo = defineTool({
      name: 'echo',
      description: 'echo',
      input: z.object({ text: z.string() }),
      run: ({ text }) => {
        log.push(`run ${text}`);
        return text;
      },
    });
    const executor = createToolExecutor({ registry: new ToolRegistry([echo]), concurrency: 1 });
    const starts: ToolStartRecord[] = [];
    const ends: ToolEndRecord[] = [];
    await executor.execute(
      [
        { id: 'a', name: 'echo', input: 'one' },
        { id: 'b', name: 'nope', input: {} },
      ],
      {
        onStart: (r) => {
          starts.push(r);
          log.push(`start ${r.id}`);
        },
        onEnd: (r) => {
          ends.push(r);
          log.push(`end ${r.id}`);
        },
      },
    );
    // A synchronous tool runs at once, so records come in call order.
    expect(log).toEqual(['start a', 'run one', 'end a', 'start b', 'end b']);
    expect(starts.find((s) => s.id === 'a')).toEqual({
      index: 0,
      id: 'a',
      name: 'echo',
      tool: 'echo',
      input: { text: 'one' },
    });
    expect(ends.find((e) => e.id === 'b')).toMatchObject({ ok: false, errorKind: 'unknown_tool', tool: undefined });
  });

  it('survives a throwing event subscriber', async () => {
    const executor = createToolExecutor({
      registry: new ToolRegistry([defineTool({ name: 't', description: 't', input: z.object({}), run: () => 'ok' })]),
    });
    const records = await executor.execute([{ id: '1', name: 't', input: {} }], {
      onStart: () => {
        throw new Error('subscriber bug');
      },
    });
    expect(records[0]).toMatchObject({ ok: true, output: 'ok' });
  });

  it('streams start and end items, then the ordered records', async () => {
    const { make } = tracked();
    const executor = createToolExecutor({ registry: new ToolRegistry([make('work')]) });
    const calls = [20, 1].map((ms, i) => ({ id: `c${i}`, name: 'work', input: { ms, label: `L${i}` } }));
    const items: string[] = [];
    let done: ToolEndRecord[] = [];
    for await (const item of executor.stream(calls)) {
      if (item.type === 'done') done = item.records;
      else items.push(`${item.type} ${item.record.id}`);
    }
    expect(items).toEqual(['start c0', 'start c1', 'end c1', 'end c0']);
    expect(done.map((r) => r.output)).toEqual(['L0', 'L1']);
  });
});

describe('createToolExecutor: executeNow', () => {
  const now = defineTool({ name: 'now', description: 'sync', input: z.object({}), run: () => 'at once' });
  const later = defineTool({
    name: 'later',
    description: 'async',
    input: z.object({}),
    run: async () => {
      await wait(5);
      return 'later';
    },
  });

  it('returns the records themselves when every call finished at once, a promise when one had to wait', async () => {
    const executor = createToolExecutor({ registry: new ToolRegistry([now, later]) });
    const direct = executor.executeNow([
      { id: 'a', name: 'now', input: {} },
      { id: 'b', name: 'nope', input: {} },
    ]);
    expect(direct).not.toBeInstanceOf(Promise);
    expect((direct as ToolEndRecord[]).map((r) => [r.id, r.ok])).toEqual([
      ['a', true],
      ['b', false],
    ]);
    const waiting = executor.executeNow([
      { id: 'a', name: 'now', input: {} },
      { id: 'c', name: 'later', input: {} },
    ]);
    expect(waiting).toBeInstanceOf(Promise);
    expect((await waiting).map((r) => r.output)).toEqual(['at once', 'later']);
  });

  it('waits for a slot when the cap is reached, even for a synchronous tool', async () => {
    const executor = createToolExecutor({ registry: new ToolRegistry([now, later]), concurrency: 1 });
    const records = executor.executeNow([
      { id: 'c', name: 'later', input: {} },
      { id: 'a', name: 'now', input: {} },
    ]);
    expect(records).toBeInstanceOf(Promise);
    expect((await records).map((r) => r.output)).toEqual(['later', 'at once']);
  });
});

describe('createToolExecutor: abort', () => {
  it('aborts running tools when the caller’s signal aborts, even ones that ignore it', async () => {
    let toolSignal: AbortSignal | undefined;
    const hang = defineTool({
      name: 'hang',
      description: 'hangs',
      input: z.object({}),
      run: (_input, ctx) => {
        toolSignal = ctx.signal;
        return new Promise(() => {});
      },
    });
    const registry = new ToolRegistry([hang]);
    const executor = createToolExecutor({ registry, concurrency: 1, maxFailures: 1 });
    const controller = new AbortController();
    const began = Date.now();
    const pending = executor.execute(
      [
        { id: 'a', name: 'hang', input: {} },
        { id: 'b', name: 'hang', input: {} },
      ],
      { signal: controller.signal, onStart: () => setTimeout(() => controller.abort(), 5) },
    );
    const records = await pending;
    expect(Date.now() - began).toBeLessThan(2000);
    expect(toolSignal?.aborted).toBe(true);
    expect(records.map((r) => r.errorKind)).toEqual(['aborted', 'aborted']);
    expect(records[0].output).toBe('Tool hang was aborted.');
    expect(records[1].output).toBe('Tool hang was aborted before it ran.');
    // Aborts are not the tool's fault: it stays enabled.
    expect(registry.isEnabled('hang')).toBe(true);
  });

  it('stops waiting between retries when aborted', async () => {
    const { RetryableToolError } = await import('../../src/tools/retryable-tool-error.js');
    const flaky = defineTool({
      name: 'flaky',
      description: 'x',
      input: z.object({}),
      retries: 5,
      run: () => {
        throw new RetryableToolError('busy', { retryAfterMs: 60_000 });
      },
    });
    const executor = createToolExecutor({ registry: new ToolRegistry([flaky]) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    const [record] = await executor.execute([{ id: '1', name: 'flaky', input: {} }], { signal: controller.signal });
    expect(record).toMatchObject({ errorKind: 'aborted', attempts: 1 });
  });
});
