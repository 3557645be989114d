import { describe, expect, it } from 'vitest';
import { costOf, priceOf, registerPrice } from '../../src/trace/prices.js';

describe('costOf', () => {
  it('prices a known model by its id with provider prefix', () => {
    expect(costOf('openai:gpt-4o-mini', { promptTokens: 1_000_000, completionTokens: 1_000_000 })).toBeCloseTo(0.75);
  });

  it('matches a dated model id by its longest known prefix', () => {
    expect(priceOf('openai:gpt-4o-mini-2024-07-18')).toMatchObject({ input: 0.15, output: 0.6 });
    expect(priceOf('anthropic:claude-3-5-sonnet-20241022')).toMatchObject({ input: 3, output: 15 });
  });

  it('reads the model after # in compat specs', () => {
    expect(priceOf('compat:http://localhost:8000/v1#deepseek-chat')).toMatchObject({ input: 0.27, output: 1.1 });
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

  it('prices cache reads and writes at their own rates, the rest of the prompt at the input rate', () => {
    // claude-sonnet-4: input 3, cache read 0.3, cache write 3.75, output 15 ($ per million tokens).
    const cost = costOf('anthropic:claude-sonnet-4-5', {
      promptTokens: 10_000,
      completionTokens: 1_000,
      cacheReadTokens: 6_000,
      cacheWriteTokens: 2_000,
    });
    expect(cost).toBeCloseTo((2_000 * 3 + 6_000 * 0.3 + 2_000 * 3.75 + 1_000 * 15) / 1e6, 10);
  });

  it('prices cache tokens at the input rate when no cache price is known', () => {
    registerPrice('cacheless-model', { input: 1, output: 2 });
    expect(
      costOf('compat:http://x#cacheless-model', { promptTokens: 100, completionTokens: 0, cacheReadTokens: 90 }),
    ).toBeCloseTo(100 / 1e6, 12);
  });
});
