import { describe, expect, it } from 'vitest';
import { Agent, type AgentEvent, scriptedModel } from '../../src/index.js';
import { addTool, call, waitTool } from './helpers.js';

describe('Agent loop: guards and statuses', () => {
  it('max_steps: stops and asks once more, with no tools, for the best answer', async () => {
    const model = scriptedModel([call('add', { a: 1, b: 1 }), call('add', { a: 2, b: 2 }), 'Best so far: 4']);
    const result = await new Agent({ model, tools: [addTool], maxSteps: 2 }).run('keep adding');
    expect(result.status).toBe('max_steps');
    expect(result.output).toBe('Best so far: 4');
    expect(model.calls).toHaveLength(3);
    expect(model.calls[2].tools).toBeUndefined();
    expect(result.error?.message).toMatch(/maxSteps \(2\)/);
  });

  it('max_steps without the last call when finalAnswerOnMaxSteps is false', async () => {
    const model = scriptedModel([call('add', { a: 1, b: 1 })]);
    const result = await new Agent({ model, tools: [addTool], maxSteps: 1, finalAnswerOnMaxSteps: false }).run('x');
    expect(result).toMatchObject({ status: 'max_steps', output: '' });
    expect(model.calls).toHaveLength(1);
  });

  it('loop_detected: the second identical call is warned, the third stops the run', async () => {
    const same = () => call('add', { b: 2, a: 1 });
    const model = scriptedModel([call('add', { a: 1, b: 2 }), same(), same(), 'never']);
    const events: AgentEvent[] = [];
    const result = await new Agent({ model, tools: [addTool] }).run('x', { onEvent: (e) => events.push(e) });
    expect(result.status).toBe('loop_detected');
    expect(result.steps[1].toolCalls[0].output).toMatch(/already called add with these exact arguments/);
    expect(result.stats.repetitionWarnings).toBe(1);
    expect(events.some((e) => e.type === 'warning')).toBe(true);
    expect(model.calls).toHaveLength(3);
  });

  it('loop_detected: the same observation K steps in a row warns, then stops', async () => {
    const model = scriptedModel([
      call('add', { a: 1, b: 1 }),
      call('add', { a: 0, b: 2 }),
      call('add', { a: 2, b: 0 }),
      call('add', { a: 1.5, b: 0.5 }),
      'never',
    ]);
    const result = await new Agent({ model, tools: [addTool], sameObservationLimit: 3 }).run('x');
    expect(result.status).toBe('loop_detected');
    expect(result.error?.code).toBe('same_observation');
    expect(result.steps[2].warnings?.[0]).toMatch(/same observation 3 steps in a row/);
  });

  it('failed after 3 invalid replies in a row, each answered with a correction', async () => {
    const bad = 'Thought: I will act\nAction:';
    const model = scriptedModel([bad, bad, bad]);
    const events: AgentEvent[] = [];
    const result = await new Agent({ model, tools: [addTool], protocol: 'react' }).run('x', {
      onEvent: (e) => events.push(e),
    });
    expect(result.status).toBe('failed');
    expect(result.error?.code).toBe('invalid_output');
    expect(result.stats.invalidReplies).toBe(3);
    expect(events.filter((e) => e.type === 'invalid_output')).toHaveLength(3);
    expect(model.calls[1].messages.length).toBeGreaterThan(model.calls[0].messages.length);
  });

  it('an invalid reply followed by a good one recovers', async () => {
    const model = scriptedModel(['Thought: hmm\nAction:', 'Final Answer: fine']);
    const result = await new Agent({ model, tools: [addTool], protocol: 'react' }).run('x');
    expect(result).toMatchObject({ status: 'done', output: 'fine' });
    expect(result.stats.invalidReplies).toBe(1);
  });

  it('budget_exceeded when the token budget is spent', async () => {
    const reply = { ...call('add', { a: 1, b: 1 }), usage: { promptTokens: 600, completionTokens: 50 } };
    const model = scriptedModel([
      reply,
      { ...call('add', { a: 2, b: 2 }), usage: { promptTokens: 700, completionTokens: 50 } },
      'x',
    ]);
    const result = await new Agent({ model, tools: [addTool], budget: { maxTotalTokens: 1000 } }).run('x');
    expect(result.status).toBe('budget_exceeded');
    expect(result.error?.code).toBe('token_budget');
    expect(result.usage.promptTokens).toBe(1300);
  });

  it('budget_exceeded when the time budget runs out mid-call', async () => {
    const model = scriptedModel(['slow'], { delayMs: 5_000 });
    const started = Date.now();
    const result = await new Agent({ model, budget: { maxDurationMs: 50 } }).run('x');
    expect(result.status).toBe('budget_exceeded');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('aborted promptly, aborting the in-flight model call', async () => {
    const model = scriptedModel(['late'], { delayMs: 5_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const started = Date.now();
    const result = await new Agent({ model }).run('x', { signal: controller.signal });
    const ms = Date.now() - started;
    expect(result.status).toBe('aborted');
    expect(ms).toBeLessThan(30 + 500);
  });

  it('aborted promptly while tools run, aborting them', async () => {
    const log: string[] = [];
    const model = scriptedModel([call('wait', { id: 'a' }), 'never']);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const result = await new Agent({ model, tools: [waitTool('wait', 10_000, log)] }).run('x', {
      signal: controller.signal,
    });
    expect(result.status).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(log).toEqual(['start:a']);
  });

  it('failed with a clear error when the model fails', async () => {
    const model = scriptedModel([]);
    const result = await new Agent({ model }).run('x');
    expect(result.status).toBe('failed');
    expect(result.error?.message).toMatch(/ran out of replies/);
  });

  it('an unknown tool becomes an observation listing the tools, not a crash', async () => {
    const model = scriptedModel([call('ad', { a: 1, b: 1 }), 'ok']);
    const result = await new Agent({ model, tools: [addTool] }).run('x');
    expect(result.status).toBe('done');
    expect(result.steps[0].toolCalls[0].ok).toBe(false);
    expect(result.steps[0].toolCalls[0].output).toMatch(/add/);
  });
});
