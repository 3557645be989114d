import { describe, expect, it } from 'vitest';
import { costOf, priceOf, registerPrice } from '../../src/trace/prices.js';

describe('costOf', () => {
  it('prices a known model by its id with provider prefix', () => {
    expect(costOf('openai:gpt-4o-mini', { promptTokens: 1_000_000, completionTokens: 1_000_000 })).toBeCloseTo(0.75);
  });

  it('matches a dated model id by its longest known prefix', () => {
    expect(priceOf('openai:gpt-4o-mini-2024-07-18')).toEqual({ input: 0.15, output: 0.6 });
    expect(priceOf('anthropic:claude-3-5-sonnet-20241022')).toEqual({ input: 3, output: 15 });
  });

  it('reads the model after # in compat specs', () => {
    expect(priceOf('compat:http://localhost:8000/v1#deepseek-chat')).toEqual({ input: 0.27, output: 1.1 });
  });

  it('is zero for local models and undefined for unknown ones', () => {
    expect(costOf('ollama:llama3', { promptTokens: 500, completionTokens: 500 })).toBe(0);
    expect(costOf('scripted', { promptTokens: 500, completionTokens: 500 })).toBe(0);
    expect(costOf('acme:mystery-7b', { promptTokens: 500, completionTokens: 500 })).toBeUndefined();
  });

  it('lets the user register a price', () => {
    registerPrice('mystery-7b', { input: 1, output: 2 });
    expect(costOf('acme:mystery-7b', { promptTokens: 1_000_000, completionTokens: 500_000 })).toBe(2);
  });
});
