import { describe, expect, it } from 'vitest';
import { parseJsonAction } from '../../../src/protocols/index.js';

describe('parseJsonAction repair', () => {
  it.each([
    ['single quotes', "{'action': 'a', 'action_input': {'k': 'v'}}"],
    ['trailing commas', '{"action": "a", "action_input": {"k": "v",},}'],
    ['line comments', '{\n// pick a tool\n"action": "a",\n"action_input": {"k": "v"}\n}'],
    ['block comments', '{"action": "a", /* why */ "action_input": {"k": "v"}}'],
    ['unquoted keys', '{action: "a", action_input: {k: "v"}}'],
  ])('repairs %s and marks the step repaired', (_name, text) => {
    expect(parseJsonAction(text)).toEqual({ type: 'action', tool: 'a', input: { k: 'v' }, repaired: true });
  });

  it('does not mark strict JSON as repaired', () => {
    expect(parseJsonAction('{"action": "a", "action_input": {"k": "v"}}')).not.toHaveProperty('repaired');
  });

  it('repairs JSON cut off after the arguments were complete', () => {
    expect(parseJsonAction('{"action": "a", "action_input": {"k": "v"}')).toEqual({
      type: 'action',
      tool: 'a',
      input: { k: 'v' },
      repaired: true,
    });
  });

  it('refuses JSON cut off inside the arguments', () => {
    const step = parseJsonAction('{"action": "a", "action_input": {"k": "trunc');
    expect(step).toMatchObject({ type: 'invalid', reason: expect.stringContaining('cut off') });
  });

  it('refuses JSON cut off before the input was written', () => {
    expect(parseJsonAction('{"action": "a", "action_input":')).toMatchObject({
      type: 'invalid',
      reason: expect.stringContaining('cut off'),
    });
    expect(parseJsonAction('{"action": "a", ')).toMatchObject({
      type: 'invalid',
      reason: expect.stringContaining('cut off'),
    });
  });

  it('refuses JSON cut off before the action', () => {
    expect(parseJsonAction('{"thought": "I will')).toMatchObject({
      type: 'invalid',
      reason: expect.stringContaining('cut off before the action'),
    });
  });

  it('repairs a truncated final answer', () => {
    expect(parseJsonAction('{"action": "final_answer", "action_input": "The answer is 4"')).toEqual({
      type: 'final',
      answer: 'The answer is 4',
      repaired: true,
    });
  });

  it('carries the raw reply and a format reminder in every invalid result', () => {
    const raw = '{"foo": 1}';
    const step = parseJsonAction(raw);
    expect(step).toMatchObject({ type: 'invalid', raw });
    expect(step.type === 'invalid' && step.reason).toContain('"action": "final_answer"');
  });

  it('respects braces and backticks inside strings', () => {
    const text = '```json\n{"action": "a", "action_input": {"code": "if (x) { y(); } ```js``` }"}}\n```';
    expect(parseJsonAction(text)).toMatchObject({ input: { code: 'if (x) { y(); } ```js``` }' } });
  });
});
