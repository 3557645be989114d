import { describe, expect, it } from 'vitest';
import { costOf, priceOf, registerPrice } from '../../src/llm/prices.js';

describe('costOf', () => {
  it('prices a known model by its id with provider prefix', () => {
    expect(costOf('openai:gpt-4o-mini', { promptTokens: 1_000_000, completionTokens: 1_000_000 })).toBeCloseTo(0.75);
  });

  it('matches names exactly, never by prefix: o3-pro is not o3, claude-opus-4-5 is not claude-opus-4', () => {
    expect(priceOf('openai:o3')).toMatchObject({ input: 2, output: 8 });
    expect(priceOf('openai:o3-pro')).toMatchObject({ input: 20, output: 80 });
    expect(priceOf('openai:gpt-5')).toMatchObject({ input: 1.25, output: 10 });
    expect(priceOf('openai:gpt-5-mini')).toMatchObject({ input: 0.25, output: 2 });
    expect(priceOf('openai:gpt-5-nano')).toMatchObject({ input: 0.05, output: 0.4 });
    expect(priceOf('anthropic:claude-opus-4-5')).toMatchObject({ input: 5, output: 25 });
    expect(priceOf('anthropic:claude-opus-4')).toMatchObject({ input: 15, output: 75 });
    // Names that merely start with a known one are unknown, not priced as it.
    expect(priceOf('openai:o3-deep-research')).toBeUndefined();
    expect(priceOf('openai:gpt-4o-audio-preview')).toBeUndefined();
    expect(priceOf('openai:gpt-4.1-mini-finetuned')).toBeUndefined();
  });

  it('prices the current families', () => {
    for (const id of [
      'openai:gpt-5',
      'openai:gpt-5.1',
      'openai:gpt-5-pro',
      'openai:o4-mini',
      'openai:gpt-4.1',
      'openai:gpt-4.1-mini',
      'openai:gpt-4.1-nano',
      'anthropic:claude-opus-4-1',
      'anthropic:claude-sonnet-4-5',
      'anthropic:claude-haiku-4-5',
      'google:gemini-2.5-pro',
      'google:gemini-2.5-flash',
      'compat:https://api.deepseek.com/v1#deepseek-chat',
      'compat:https://api.deepseek.com/v1#deepseek-reasoner',
    ]) {
      expect(priceOf(id), id).toBeDefined();
    }
  });

  it('matches dated snapshots and aliases of a known model', () => {
    expect(priceOf('openai:gpt-4o-mini-2024-07-18')).toMatchObject({ input: 0.15, output: 0.6 });
    expect(priceOf('openai:gpt-4o-2024-08-06')).toMatchObject({ input: 2.5, output: 10 });
    expect(priceOf('openai:o3-pro-2025-06-10')).toMatchObject({ input: 20, output: 80 });
    expect(priceOf('openai:gpt-3.5-turbo-0125')).toMatchObject({ input: 0.5, output: 1.5 });
    expect(priceOf('openai:gpt-5-chat-latest')).toMatchObject({ input: 1.25, output: 10 });
    expect(priceOf('anthropic:claude-3-5-sonnet-20241022')).toMatchObject({ input: 3, output: 15 });
    expect(priceOf('anthropic:claude-sonnet-4-5-20250929')).toMatchObject({ input: 3, output: 15 });
    expect(priceOf('anthropic:claude-opus-4-5-20251101')).toMatchObject({ input: 5, output: 25 });
    expect(priceOf('anthropic:claude-3-5-haiku-latest')).toMatchObject({ input: 0.8, output: 4 });
    expect(priceOf('vertex:claude-sonnet-4-5@20250929')).toMatchObject({ input: 3, output: 15 });
    expect(priceOf('anthropic:claude-sonnet-4-0')).toMatchObject({ input: 3, output: 15 });
    expect(priceOf('google:models/gemini-2.5-flash')).toMatchObject({ input: 0.3, output: 2.5 });
  });

  it('reads the model after # in compat specs', () => {
    expect(priceOf('compat:http://localhost:8000/v1#deepseek-chat')).toMatchObject({ input: 0.28, output: 0.42 });
  });

  it('is zero for local models and undefined for unknown ones', () => {
    expect(costOf('ollama:llama3', { promptTokens: 500, completionTokens: 500 })).toBe(0);
    expect(costOf('scripted', { promptTokens: 500, completionTokens: 500 })).toBe(0);
    expect(costOf('acme:mystery-7b', { promptTokens: 500, completionTokens: 500 })).toBeUndefined();
  });

  it('lets the user register a price, matched exactly and with snapshot suffixes', () => {
    registerPrice('mystery-7b', { input: 1, output: 2 });
    expect(costOf('acme:mystery-7b', { promptTokens: 1_000_000, completionTokens: 500_000 })).toBe(2);
    expect(priceOf('acme:mystery-7b-20260101')).toEqual({ input: 1, output: 2 });
    expect(priceOf('acme:mystery-7b-instruct')).toBeUndefined();
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
