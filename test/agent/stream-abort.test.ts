import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { planAndExecute } from '../../src/entries/planning.js';
import { Agent, type AgentEvent, defineTool, scriptedModel } from '../../src/index.js';
import { createToolExecutor } from '../../src/tools/tool-executor.js';
import { ToolRegistry } from '../../src/tools/tool-registry.js';

/** A tool that waits until its signal fires (or 10 s), and resolves `aborted` when it does. */
function watchingTool() {
  let sawAbort = () => {};
  const aborted = new Promise<void>((resolve) => {
    sawAbort = resolve;
  });
  const stats = { runs: 0 };
  const tool = defineTool({
    name: 'work',
    description: 'Works until aborted.',
    input: z.object({}),
    run: async (_input, ctx) => {
      stats.runs += 1;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 10_000);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          sawAbort();
          resolve();
        });
      });
      return 'worked';
    },
  });
  return { tool, aborted, stats };
}

/** A model that calls `work` every step (the run would go on to maxSteps), counting its calls. */
const busyModel = () => scriptedModel(() => ({ text: '', toolCalls: [{ id: 'w', name: 'work', arguments: '{}' }] }));

/** An agent whose run end is seen through `onEvent` (which still hears the run after the stream is left). */
function busyAgent() {
  const model = busyModel();
  const watch = watchingTool();
  let onEnd = (_e: AgentEvent) => {};
  const end = new Promise<AgentEvent>((resolve) => {
    onEnd = resolve;
  });
  const agent = new Agent({ model, tools: [watch.tool], maxSteps: 5 });
  const onEvent = (e: AgentEvent) => {
    if (e.type === 'run_end') onEnd(e);
  };
  return { agent, model, watch, end, onEvent };
}

describe('leaving agent.stream() aborts the run', () => {
  it('break out of for await: the running tool sees its signal, no further model call, the run ends aborted', async () => {
    const { agent, model, watch, end, onEvent } = busyAgent();
    for await (const event of agent.stream('go', { onEvent })) {
      if (event.type === 'tool_start') break;
    }
    await watch.aborted;
    const last = await end;
    expect(last).toMatchObject({ type: 'run_end', status: 'aborted' });
    expect(model.calls).toHaveLength(1);
    expect(watch.stats.runs).toBe(1);
  });

  it('a throw in the loop body aborts it too', async () => {
    const { agent, model, watch, end, onEvent } = busyAgent();
    await expect(
      (async () => {
        for await (const event of agent.stream('go', { onEvent })) {
          if (event.type === 'tool_start') throw new Error('consumer failed');
        }
      })(),
    ).rejects.toThrow('consumer failed');
    await watch.aborted;
    expect(await end).toMatchObject({ status: 'aborted' });
    expect(model.calls).toHaveLength(1);
  });

  it('return() while a next() is still waiting ends that next() and aborts the run at once', async () => {
    const { agent, model, watch, end, onEvent } = busyAgent();
    const events = agent.stream('go', { onEvent })[Symbol.asyncIterator]();
    for (;;) {
      const { value } = await events.next();
      if (value?.type === 'tool_start') break;
    }
    // The tool runs for 10 s: this next() waits for its tool_end.
    const waiting = events.next();
    await events.return?.();
    expect(await waiting).toEqual({ done: true, value: undefined });
    await watch.aborted;
    expect(await end).toMatchObject({ status: 'aborted' });
    expect(model.calls).toHaveLength(1);
  });

  it('the caller’s own signal still aborts a streamed run', async () => {
    const { agent, watch } = busyAgent();
    const controller = new AbortController();
    const seen: string[] = [];
    for await (const event of agent.stream('go', { signal: controller.signal })) {
      seen.push(event.type);
      if (event.type === 'tool_start') controller.abort();
    }
    await watch.aborted;
    expect(seen.at(-1)).toBe('run_end');
  });

  it('reading to the end is unchanged: every event up to run_end', async () => {
    const agent = new Agent({ model: scriptedModel(['Hi.']) });
    const types: string[] = [];
    for await (const event of agent.stream('hi')) types.push(event.type);
    expect(types.at(-1)).toBe('run_end');
    expect(types).toContain('final');
  });

  it('planAndExecute().stream() aborts its run when left early', async () => {
    const { agent, model, watch } = busyAgent();
    const planner = scriptedModel(['{"steps":["work"]}', '{"action":"continue"}', 'answer']);
    const plan = planAndExecute({ planner, executor: agent });
    for await (const event of plan.stream('go')) {
      if (event.type === 'tool_start') break;
    }
    await watch.aborted;
    expect(model.calls).toHaveLength(1);
  });
});

describe('leaving executor.stream() aborts the calls still running', () => {
  it('break after the first start: the tool sees its signal', async () => {
    const watch = watchingTool();
    const executor = createToolExecutor({ registry: new ToolRegistry([watch.tool]) });
    for await (const item of executor.stream([{ id: '1', name: 'work', input: {} }])) {
      if (item.type === 'start') break;
    }
    await watch.aborted;
    expect(watch.stats.runs).toBe(1);
  });
});
