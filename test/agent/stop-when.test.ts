import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { calledTool, costOver, durationOver, maxSteps, type StopCondition, tokensOver } from '../../src/agent/index.js';
import { Agent, type AgentEvent, defineTool, scriptedModel } from '../../src/index.js';
import { addTool, call } from './helpers.js';

const report = defineTool({
  name: 'final_report',
  description: 'Files the final report.',
  input: z.object({ text: z.string() }),
  run: ({ text }) => `Report filed: ${text}`,
});

const adding = (n: number) => Array.from({ length: n }, (_, i) => call('add', { a: i, b: 1 }, `c${i}`));

describe('stopWhen: stop conditions the user composes', () => {
  it('calledTool ends the run done after the step that called it, the tool result as the answer', async () => {
    const model = scriptedModel([call('add', { a: 1, b: 2 }), call('final_report', { text: 'all good' }), 'never']);
    const events: AgentEvent[] = [];
    const agent = new Agent({ model, tools: [addTool, report], stopWhen: [maxSteps(10), calledTool('final_report')] });
    const result = await agent.run('Report.', { onEvent: (e) => events.push(e) });
    expect(result).toMatchObject({ status: 'done', output: 'Report filed: all good', error: undefined });
    expect(result.steps).toHaveLength(2);
    expect(model.calls).toHaveLength(2);
    expect(events.filter((e) => e.type === 'final')).toMatchObject([{ step: 1, output: 'Report filed: all good' }]);
  });

  it('maxSteps(n) is the maxSteps option: status max_steps after n steps, then the best-effort answer', async () => {
    for (const options of [{ stopWhen: maxSteps(3) }, { maxSteps: 3 }, { stopWhen: [maxSteps(50), maxSteps(3)] }]) {
      const model = scriptedModel([...adding(3), 'Best I can say: 3.']);
      const result = await new Agent({ model, tools: [addTool], ...options }).run('Add.');
      expect(result.status).toBe('max_steps');
      expect(result.steps).toHaveLength(3);
      expect(result.output).toBe('Best I can say: 3.');
    }
  });

  it('a stopWhen maxSteps above the default of 10 lets the run go on past 10 steps', async () => {
    const model = scriptedModel([...adding(12), 'Final Answer: 12']);
    const result = await new Agent({ model, tools: [addTool], stopWhen: [maxSteps(20)] }).run('Add.');
    expect(result).toMatchObject({ status: 'done', output: '12' });
    expect(result.steps).toHaveLength(13);
  });

  it('tokensOver, durationOver and costOver end the run budget_exceeded with their own codes', async () => {
    const usage = { promptTokens: 600, completionTokens: 100 };
    const reply = { ...call('add', { a: 1, b: 1 }), usage };
    const cases: [StopCondition, string, string][] = [
      [tokensOver(1000), 'token_budget', 'gpt-4o'],
      [durationOver(0), 'time_budget', 'gpt-4o'],
      [costOver(0.001), 'cost_budget', 'gpt-4o'],
    ];
    for (const [condition, code, id] of cases) {
      const model = scriptedModel([reply, reply, reply, 'Final Answer: x'], { id });
      const result = await new Agent({ model, tools: [addTool], stopWhen: condition }).run('Add.');
      expect(result.status).toBe('budget_exceeded');
      expect(result.error?.code).toBe(code);
      expect(result.steps.length).toBeLessThan(4);
    }
    // A model without a known price never stops for cost.
    const unpriced = scriptedModel([reply, 'Final Answer: x'], { id: 'no-such-model' });
    expect((await new Agent({ model: unpriced, tools: [addTool], stopWhen: costOver(0) }).run('Add.')).status).toBe(
      'done',
    );
  });

  it('a custom condition stops with its own reason, and sees the steps and usage', async () => {
    const seen: number[] = [];
    const twoAdds: StopCondition = ({ steps }) => {
      seen.push(steps.length);
      const adds = steps.flatMap((s) => s.toolCalls).filter((c) => c.name === 'add').length;
      return adds >= 2 ? { status: 'failed', code: 'too_many_adds', message: 'Two adds are enough.' } : undefined;
    };
    const model = scriptedModel([...adding(5), 'Final Answer: x']);
    const result = await new Agent({ model, tools: [addTool], stopWhen: twoAdds }).run('Add.');
    expect(result).toMatchObject({
      status: 'failed',
      error: { code: 'too_many_adds', message: 'Two adds are enough.' },
    });
    expect(seen).toEqual([1, 2]);
  });
});
