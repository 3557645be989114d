import { describe, expect, it } from 'vitest';
import { observationLimitFor } from '../../src/agent/observation-limit-for.js';
import { scriptedModel } from '../../src/index.js';

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
