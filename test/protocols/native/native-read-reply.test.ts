import { describe, expect, it } from 'vitest';
import { nativeProtocol } from '../../../src/protocols/index.js';

const read = nativeProtocol.readReply;

describe('nativeProtocol.readReply', () => {
  it('returns provider tool calls with their ids, strict JSON arguments read as objects', () => {
    const reply = read({
      text: '',
      toolCalls: [
        { id: 'call_a', name: 'search', arguments: '{"q":"x"}' },
        { id: 'call_b', name: 'clock', arguments: '' },
      ],
    });
    expect(reply).toEqual({
      type: 'tool_calls',
      calls: [
        { id: 'call_a', name: 'search', input: { q: 'x' } },
        { id: 'call_b', name: 'clock', input: '' },
      ],
    });
  });

  it('leaves arguments that are not strict JSON for an object to the tool layer, as sent', () => {
    const args = ["{q: 'x',}", '[1, 2]', '"Paris"', '{"q": "x"} trailing', 'null'];
    const reply = read({ text: '', toolCalls: args.map((a, i) => ({ id: `c${i}`, name: 'search', arguments: a })) });
    expect(reply).toEqual({
      type: 'tool_calls',
      calls: args.map((a, i) => ({ id: `c${i}`, name: 'search', input: a })),
    });
  });

  it('keeps the text beside tool calls as the thought, with <think> reasoning first', () => {
    const reply = read({
      text: '<think>why</think>Let me check.',
      toolCalls: [{ id: 'c', name: 'a', arguments: '{}' }],
    });
    expect(reply).toMatchObject({ type: 'tool_calls', thought: 'why\n\nLet me check.' });
  });

  it('reads plain text as the final answer, reasoning as the thought', () => {
    expect(read({ text: 'Paris.' })).toEqual({ type: 'final', answer: 'Paris.' });
    expect(read({ text: '<think>easy</think>\nParis.' })).toEqual({ type: 'final', thought: 'easy', answer: 'Paris.' });
  });

  it('keeps a long plain answer whole (no length limit for native final answers)', () => {
    const text = 'word '.repeat(2000).trim();
    expect(read({ text })).toEqual({ type: 'final', answer: text });
  });

  it('reads a <tool_call> tag in the text as a tool call (local models without tool parsing)', () => {
    const reply = read({ text: '<tool_call>\n{"name": "search", "arguments": {"q": "x"}}\n</tool_call>' });
    expect(reply).toMatchObject({ type: 'tool_calls', calls: [{ name: 'search', input: { q: 'x' } }] });
    if (reply.type === 'tool_calls') expect(reply.calls[0].id).toMatch(/^call_/);
  });

  it('reads a ReAct action in the text as a tool call', () => {
    const reply = read({ text: 'Thought: t\nAction: search\nAction Input: {"q": "x"}' });
    expect(reply).toMatchObject({ type: 'tool_calls', thought: 't', calls: [{ name: 'search', input: { q: 'x' } }] });
  });

  it('reads a reply that is only a JSON action as a tool call', () => {
    const reply = read({ text: '```json\n{"name": "search", "arguments": {"q": "x"}}\n```' });
    expect(reply).toMatchObject({ type: 'tool_calls', calls: [{ name: 'search', input: { q: 'x' } }] });
  });

  it('reads call markers and pythonic lists from models whose server did not extract the calls', () => {
    expect(read({ text: '[TOOL_CALLS] [{"name": "calc", "arguments": {"e": "1"}}]' })).toEqual({
      type: 'tool_calls',
      calls: [{ id: expect.stringMatching(/^call_/), name: 'calc', input: { e: '1' } }],
      habits: ['special_tokens'],
    });
    expect(read({ text: '<|python_tag|>{"name": "calc", "parameters": {"e": "1"}}<|eom_id|>' })).toMatchObject({
      calls: [{ name: 'calc', input: { e: '1' } }],
    });
    expect(read({ text: '[calc(e="1")]' })).toMatchObject({ calls: [{ name: 'calc', input: { e: '1' } }] });
  });

  it('keeps an answer whose keywords make no readable action as the answer', () => {
    const text = 'Incident plan:\n**Action:** restart the web server\n**Owner:** on-call';
    expect(read({ text })).toEqual({ type: 'final', answer: text });
  });

  it('keeps an answer that quotes JSON as the answer', () => {
    const text = 'Call it like this: {"name": "search", "arguments": {"q": "x"}}';
    expect(read({ text })).toEqual({ type: 'final', answer: text });
  });

  it('strips the "Final Answer:" label from a ReAct-style final answer', () => {
    expect(read({ text: 'Thought: done\nFinal Answer: 42' })).toEqual({ type: 'final', thought: 'done', answer: '42' });
  });

  it('reports an empty reply, and a reasoning-only reply, as invalid', () => {
    expect(read({ text: '' })).toMatchObject({ type: 'invalid', reason: expect.stringContaining('empty') });
    expect(read({ text: '<think>hmm</think>' })).toMatchObject({
      type: 'invalid',
      reason: expect.stringContaining('only reasoning'),
    });
  });

  it('reports a broken text tool call as invalid, with the length hint when the reply was cut', () => {
    const reply = read({ text: '<tool_call>{"name": "search", "arguments": {"q": "unfin', finishReason: 'length' });
    expect(reply).toMatchObject({ type: 'invalid', reason: expect.stringContaining('output length limit') });
  });
});
