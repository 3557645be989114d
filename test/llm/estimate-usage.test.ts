import { describe, expect, it } from 'vitest';
import { estimateCompletionTokens, estimatePromptTokens, withUsage } from '../../src/llm/index.js';

const request = { messages: [{ role: 'user' as const, content: 'What is the weather in Paris today?' }] };

describe('usage estimation', () => {
  it('counts more tokens for longer prompts and for tool schemas', () => {
    const short = estimatePromptTokens(request);
    const long = estimatePromptTokens({ messages: [{ role: 'user', content: 'word '.repeat(200) }] });
    const withTools = estimatePromptTokens({
      ...request,
      tools: [{ name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object' } }],
    });
    expect(short).toBeGreaterThan(8);
    expect(long).toBeGreaterThan(190);
    expect(withTools).toBeGreaterThan(short);
  });

  it('counts tool-call arguments in a reply', () => {
    const plain = estimateCompletionTokens({ text: 'ok' });
    const calls = estimateCompletionTokens({
      text: 'ok',
      toolCalls: [{ id: 'a', name: 'search', arguments: '{"q":"x"}' }],
    });
    expect(calls).toBeGreaterThan(plain);
  });

  it('keeps reported usage, fills only what is missing and marks it estimated', () => {
    expect(withUsage({ text: 'hi', usage: { promptTokens: 5, completionTokens: 1 } }, request).usage).toEqual({
      promptTokens: 5,
      completionTokens: 1,
    });
    const partial = withUsage({ text: 'hello there' }, request, { completionTokens: 2 }).usage;
    expect(partial).toMatchObject({ completionTokens: 2, estimated: true });
    expect(partial?.promptTokens).toBe(estimatePromptTokens(request));
    expect(withUsage({ text: 'hello there' }, request).usage?.estimated).toBe(true);
  });
});
