import { describe, expect, it } from 'vitest';
import { Agent, type AgentEvent, scriptedModel } from '../../src/index.js';
import { addTool, call } from './helpers.js';

describe('Agents working together', () => {
  it('asTool: the child runs as a tool, its events nest under the caller, its tokens count', async () => {
    const child = new Agent({
      name: 'mathematician',
      model: scriptedModel([
        { ...call('add', { a: 20, b: 22 }), usage: { promptTokens: 100, completionTokens: 10 } },
        { text: '42', usage: { promptTokens: 120, completionTokens: 2 } },
      ]),
      tools: [addTool],
    });
    const parentModel = scriptedModel([
      { ...call('math', { task: 'Add 20 and 22' }), usage: { promptTokens: 50, completionTokens: 5 } },
      { text: 'The answer is 42.', usage: { promptTokens: 60, completionTokens: 5 } },
    ]);
    const parent = new Agent({
      model: parentModel,
      tools: [child.asTool({ name: 'math', description: 'Does arithmetic' })],
    });
    const events: AgentEvent[] = [];
    const result = await parent.run('What is 20 + 22?', { onEvent: (e) => events.push(e) });
    expect(result.output).toBe('The answer is 42.');
    expect(result.steps[0].toolCalls[0].output).toBe('42');
    const nested = events.filter((e) => e.parentRunId === result.runId);
    expect(nested.map((e) => e.type)).toContain('tool_end');
    expect(nested[0].type).toBe('run_start');
    expect(new Set(nested.map((e) => e.runId)).size).toBe(1);
    expect(result.usage.promptTokens).toBe(50 + 60 + 100 + 120);
  });

  it('a failing child becomes an observation the caller can act on', async () => {
    const child = new Agent({ model: scriptedModel([]) });
    const parent = new Agent({
      model: scriptedModel([call('helper', { task: 'x' }), 'Could not get help.']),
      tools: [child.asTool({ name: 'helper', description: 'helps' })],
    });
    const result = await parent.run('go');
    expect(result.status).toBe('done');
    expect(result.steps[0].toolCalls[0].ok).toBe(false);
    expect(result.steps[0].toolCalls[0].output).toMatch(/helper ended failed/);
  });

  it('a child never exceeds its parent remaining budget', async () => {
    const spend = { promptTokens: 400, completionTokens: 0 };
    const child = new Agent({
      model: scriptedModel(Array.from({ length: 10 }, (_, i) => ({ ...call('add', { a: i, b: 1 }), usage: spend }))),
      tools: [addTool],
      maxSteps: 10,
    });
    const parent = new Agent({
      model: scriptedModel([
        { ...call('worker', { task: 'add a lot' }), usage: { promptTokens: 100, completionTokens: 0 } },
        'stopped',
      ]),
      tools: [child.asTool({ name: 'worker', description: 'adds' })],
      budget: { maxTotalTokens: 1000 },
    });
    const result = await parent.run('go');
    expect(result.steps[0].toolCalls[0].output).toMatch(/budget_exceeded/);
    // The child was given 900 tokens: it stopped after its third call (1200 > 900 is not allowed to continue).
    expect(result.usage.promptTokens).toBeLessThanOrEqual(100 + 3 * 400);
    expect(result.status).toBe('budget_exceeded');
  });

  it('handoff: the conversation passes to another agent whose answer ends the run', async () => {
    const billing = new Agent({ name: 'billing', model: scriptedModel(['Your invoice was sent to you on May 2.']) });
    const triage = new Agent({
      name: 'triage',
      model: scriptedModel([call('transfer_to_billing', { reason: 'invoice question' })]),
      handoffs: [{ agent: billing, description: 'Questions about invoices and payments' }],
    });
    const events: AgentEvent[] = [];
    const result = await triage.run('Where is my invoice?', { onEvent: (e) => events.push(e) });
    expect(result).toMatchObject({ status: 'done', output: 'Your invoice was sent to you on May 2.' });
    const handoff = events.find((e) => e.type === 'handoff');
    expect(handoff).toMatchObject({ from: 'triage', to: 'billing', reason: 'invoice question' });
    expect(events.filter((e) => e.type === 'run_end').at(-1)?.runId).toBe(result.runId);
  });

  it('handoff: agents named in Chinese get a tool each (once both were transfer_to___, the second replacing the first)', async () => {
    const billing = new Agent({ name: '财务', model: scriptedModel(['发票已在5月2日寄出。']) });
    const support = new Agent({ name: '客服', model: scriptedModel(['您好，请问有什么可以帮您？']) });
    const twin = new Agent({ name: '客服', model: scriptedModel(['我是另一个客服。']) });
    const triage = new Agent({
      name: '分诊',
      model: scriptedModel([call('transfer_to_财务', { reason: '发票问题' })]),
      handoffs: [{ agent: billing }, { agent: support }, { agent: twin }],
    });
    const names = triage.tools.all().map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['transfer_to_财务', 'transfer_to_客服', 'transfer_to_客服_2']));
    const result = await triage.run('我的发票在哪里？');
    expect(result).toMatchObject({ status: 'done', output: '发票已在5月2日寄出。' });
  });
});
