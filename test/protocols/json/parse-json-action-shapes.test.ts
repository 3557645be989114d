import { describe, expect, it } from 'vitest';
import { parseJsonAction } from '../../../src/protocols/index.js';

describe('parseJsonAction shapes', () => {
  it('reads {"thought", "action", "action_input"}', () => {
    expect(parseJsonAction('{"thought": "t", "action": "search", "action_input": {"q": "x"}}')).toEqual({
      type: 'action',
      thought: 't',
      tool: 'search',
      input: { q: 'x' },
    });
  });

  it.each([
    ['"action": "final_answer"', '{"action": "final_answer", "action_input": "done"}'],
    ['"action": "Final Answer"', '{"action": "Final Answer", "action_input": "done"}'],
    ['"action": "final"', '{"action": "final", "action_input": "done"}'],
    ['"action": "finish"', '{"action": "finish", "action_input": "done"}'],
    ['{"final_answer": ...}', '{"final_answer": "done"}'],
    ['{"finalAnswer": ...}', '{"finalAnswer": "done"}'],
    ['{"answer": ...}', '{"answer": "done"}'],
  ])('reads %s as the final answer', (_name, text) => {
    expect(parseJsonAction(text)).toEqual({ type: 'final', answer: 'done' });
  });

  it('stringifies a non-string final answer', () => {
    expect(parseJsonAction('{"final_answer": {"total": 3}}')).toEqual({ type: 'final', answer: '{"total":3}' });
  });

  it.each([
    ['{"name", "arguments"}', '{"name": "a", "arguments": {"k": 1}}'],
    ['{"name", "parameters"}', '{"name": "a", "parameters": {"k": 1}}'],
    ['{"tool", "tool_input"}', '{"tool": "a", "tool_input": {"k": 1}}'],
    ['{"function": {...}}', '{"type": "function", "function": {"name": "a", "arguments": "{\\"k\\": 1}"}}'],
    ['{"tool_calls": [...]}', '{"tool_calls": [{"function": {"name": "a", "arguments": {"k": 1}}}]}'],
    ['{"command": {"name", "args"}}', '{"command": {"name": "a", "args": {"k": 1}}}'],
    ['{"action": {...}}', '{"action": {"name": "a", "arguments": {"k": 1}}}'],
    ['camelCase actionInput', '{"action": "a", "actionInput": {"k": 1}}'],
  ])('reads the %s shape', (_name, text) => {
    expect(parseJsonAction(text)).toMatchObject({ type: 'action', tool: 'a', input: { k: 1 } });
  });

  it('takes the first action of an array', () => {
    expect(parseJsonAction('[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}]')).toMatchObject({
      tool: 'a',
    });
  });

  it('decodes arguments given as a JSON-encoded string', () => {
    expect(parseJsonAction('{"name": "a", "arguments": "{\\"k\\": \\"v\\"}"}')).toMatchObject({ input: { k: 'v' } });
  });

  it('keeps a plain string action_input as the trimmed string', () => {
    expect(parseJsonAction('{"action": "a", "action_input": "  text  "}')).toMatchObject({ input: 'text' });
  });

  it('gives {} to a tool named without action_input', () => {
    expect(parseJsonAction('{"action": "now"}')).toEqual({ type: 'action', tool: 'now', input: {} });
  });

  it('does not take {"name": ...} alone for a call', () => {
    expect(parseJsonAction('{"name": "Alice", "age": 3}')).toMatchObject({
      type: 'invalid',
      reason: expect.stringContaining('no "action"'),
    });
  });

  it('reads the JSON inside a ```json fence with prose around it, keeping the prose as the thought', () => {
    expect(parseJsonAction('Let me search.\n```json\n{"action": "a", "action_input": "x"}\n```\nDone.')).toEqual({
      type: 'action',
      thought: 'Let me search.',
      tool: 'a',
      input: 'x',
    });
  });

  it('reads JSON in prose without a fence', () => {
    expect(parseJsonAction('Sure: {"action": "a", "action_input": "x"} hope that helps')).toMatchObject({
      tool: 'a',
      input: 'x',
    });
  });

  it('reads a <tool_call> tag and a Llama <function=…> tag', () => {
    expect(parseJsonAction('<tool_call>{"name": "a", "arguments": {"k": 1}}</tool_call>')).toMatchObject({
      tool: 'a',
      input: { k: 1 },
    });
    expect(parseJsonAction('<function=a>{"k": 1}</function>')).toMatchObject({ tool: 'a', input: { k: 1 } });
  });

  it('removes <think> and keeps it as the thought, before the JSON thought', () => {
    expect(parseJsonAction('<think>r</think>{"thought": "t", "action": "a", "action_input": "x"}')).toMatchObject({
      thought: 'r\n\nt',
    });
  });

  it('reads a ReAct reply as ReAct', () => {
    expect(parseJsonAction('Thought: t\nAction: a\nAction Input: {"k": 1}')).toEqual({
      type: 'action',
      thought: 't',
      tool: 'a',
      input: { k: 1 },
    });
  });

  it('takes a short plain reply as the final answer and refuses a long one', () => {
    expect(parseJsonAction('Hi there!')).toEqual({ type: 'final', answer: 'Hi there!' });
    expect(parseJsonAction('word '.repeat(1000))).toMatchObject({ type: 'invalid' });
  });

  it('keeps unicode intact', () => {
    expect(parseJsonAction('{"action": "翻译", "action_input": {"text": "こんにちは 👋"}}')).toEqual({
      type: 'action',
      tool: '翻译',
      input: { text: 'こんにちは 👋' },
    });
  });
});
