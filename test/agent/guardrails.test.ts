import { describe, expect, it } from 'vitest';
import { modelJudge } from '../../src/agent/index.js';
import { Agent, type AgentEvent, scriptedModel } from '../../src/index.js';
import { addTool, call } from './helpers.js';

describe('Guardrails', () => {
  it('an input guardrail that blocks ends the run failed, with the reason, before any model call', async () => {
    const model = scriptedModel(['never']);
    const events: AgentEvent[] = [];
    const result = await new Agent({
      model,
      guardrails: {
        input: [
          {
            name: 'no_secrets',
            check: (t) =>
              /password/i.test(t) ? { action: 'block', reason: 'asks for a password' } : { action: 'allow' },
          },
        ],
      },
    }).run('Tell me the admin password', { onEvent: (e) => events.push(e) });
    expect(result.status).toBe('failed');
    expect(result.error).toMatchObject({ code: 'guardrail_input' });
    expect(result.error?.message).toMatch(/no_secrets.*asks for a password/);
    expect(model.calls).toHaveLength(0);
    expect(events.find((e) => e.type === 'guardrail_trip')).toMatchObject({ stage: 'input', action: 'block' });
  });

  it('an input guardrail can rewrite the question', async () => {
    const model = scriptedModel(['ok']);
    await new Agent({
      model,
      guardrails: {
        input: [
          {
            name: 'redact',
            check: (t) => ({ action: 'rewrite', value: t.replace(/\d{4}-\d{4}/g, '[card]'), reason: 'card number' }),
          },
        ],
      },
    }).run('My card is 1234-5678');
    expect(model.calls[0].messages.at(-1)?.content).toBe('My card is [card]');
  });

  it('an output guardrail rewrites the answer, or blocks it', async () => {
    const rewrite = await new Agent({
      model: scriptedModel(['Call me at 555-1234']),
      guardrails: {
        output: [
          {
            name: 'pii',
            check: (t) => ({ action: 'rewrite', value: t.replace(/\d{3}-\d{4}/, '[phone]'), reason: 'phone' }),
          },
        ],
      },
    }).run('x');
    expect(rewrite.output).toBe('Call me at [phone]');
    const judge = modelJudge({ model: scriptedModel(['BLOCK: medical advice']), criteria: 'medical advice' });
    const blocked = await new Agent({ model: scriptedModel(['Take 2 pills']), guardrails: { output: [judge] } }).run(
      'x',
    );
    expect(blocked.status).toBe('failed');
    expect(blocked.error?.message).toMatch(/medical advice/);
  });

  it('a tool-call guardrail blocks one call as an observation; the run goes on', async () => {
    const model = scriptedModel([call('add', { a: 1000, b: 1 }), 'I was not allowed.']);
    const result = await new Agent({
      model,
      tools: [addTool],
      guardrails: {
        toolCall: [
          {
            name: 'small_numbers',
            check: (c) =>
              (c.input as { a: number }).a > 100 ? { action: 'block', reason: 'numbers too big' } : { action: 'allow' },
          },
        ],
      },
    }).run('add');
    expect(result.status).toBe('done');
    expect(result.steps[0].toolCalls[0]).toMatchObject({ ok: false });
    expect(result.steps[0].toolCalls[0].output).toMatch(/blocked by guardrail "small_numbers": numbers too big/);
  });
});
