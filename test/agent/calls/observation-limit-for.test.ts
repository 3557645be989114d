import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { observationLimitFor, observationTokensFor } from '../../../src/agent/calls/observation-limit-for.js';
import { Agent, defineTool, scriptedModel } from '../../../src/index.js';
import { charsWithinTokens } from '../../../src/tools/index.js';

describe('observationLimitFor', () => {
  const model = scriptedModel(['ok'], { contextWindow: 128_000 });

  it('cuts at the low-water share of the budget when compaction is on (about 4 characters a token)', () => {
    expect(observationLimitFor({ model, context: { budgetTokens: 24_000 } })).toBe(24_000);
    expect(observationLimitFor({ model, context: { budgetTokens: 24_000, compaction: { to: 0.1 } } })).toBe(9_600);
    // The budget from the model's window: 91,904 tokens, a quarter of it.
    expect(observationLimitFor({ model })).toBe(22_976 * 4);
  });

  it('keeps 4,000 characters without a budget, with compaction off, and never goes below it', () => {
    expect(observationLimitFor({ model: scriptedModel(['ok']) })).toBe(4000);
    expect(observationLimitFor({ model, context: { compaction: false } })).toBe(4000);
    expect(observationLimitFor({ model, context: { budgetTokens: 2_000 } })).toBe(4000);
  });

  it('takes the agent’s own observationLimit over everything', () => {
    expect(observationLimitFor({ model, observationLimit: 1234, context: { budgetTokens: 24_000 } })).toBe(1234);
  });
});

describe('a budget-derived cut in the result’s own script', () => {
  const model = scriptedModel(['ok'], { contextWindow: 128_000 });

  it('charsWithinTokens keeps about 4 characters a token of English and 1 of Chinese', () => {
    expect(charsWithinTokens('a'.repeat(10_000), 1000)).toBe(4000);
    expect(charsWithinTokens('汉'.repeat(10_000), 1000)).toBe(1000);
    expect(charsWithinTokens('short', 1000)).toBe(5);
    // Half and half: 5,000 + 1,250 estimated tokens for 10,000 characters.
    expect(charsWithinTokens(`${'汉'.repeat(5000)}${'a'.repeat(5000)}`, 1000)).toBe(1600);
  });

  it('observationTokensFor is the budget share in tokens, only when the limit comes from the budget', () => {
    expect(observationTokensFor({ model, context: { budgetTokens: 24_000 } })).toBe(6_000);
    expect(observationTokensFor({ model, observationLimit: 1234 })).toBeUndefined();
    expect(observationTokensFor({ model, context: { compaction: false } })).toBeUndefined();
    expect(observationTokensFor({ model: scriptedModel(['ok']) })).toBeUndefined();
  });

  it('an agent cuts a long Chinese result at the budget’s tokens, an English one at four times the characters', async () => {
    const page = defineTool({
      name: 'page',
      description: 'Reads a page.',
      input: z.object({ lang: z.enum(['zh', 'en']) }),
      run: ({ lang }) => (lang === 'zh' ? '汉'.repeat(30_000) : 'word '.repeat(6_000)),
    });
    const scripted = scriptedModel(
      [
        { text: '', toolCalls: [{ id: 'z', name: 'page', arguments: '{"lang":"zh"}' }] },
        { text: '', toolCalls: [{ id: 'e', name: 'page', arguments: '{"lang":"en"}' }] },
        'done',
      ],
      { contextWindow: 128_000 },
    );
    const result = await new Agent({ model: scripted, tools: [page], context: { budgetTokens: 24_000 } }).run('read');
    const [zh, en] = [result.steps[0].toolCalls[0], result.steps[1].toolCalls[0]];
    // 6,000 tokens: about 6,000 Chinese characters (the marker included), the whole 30,000 kept for recall.
    expect(zh.output.length).toBeLessThanOrEqual(6_000);
    expect(zh.output.length).toBeGreaterThan(5_000);
    expect(zh.full?.length).toBe(30_000);
    // 30,000 English characters are 7,500 tokens: cut at 24,000 characters.
    expect(en.output.length).toBeLessThanOrEqual(24_000);
    expect(en.output.length).toBeGreaterThan(23_000);
  });
});
