import { describe, expect, it } from 'vitest';
import { describeCompaction } from '../../src/core/describe-compaction.js';

describe('describeCompaction', () => {
  it('names the kind, the tokens before and after, and how many results recall_result brings back', () => {
    expect(describeCompaction({ kind: 'clear', tokensBefore: 12_052, tokensAfter: 3_580, callIds: ['a', 'b'] })).toBe(
      'clear: 12,052 → 3,580 tokens, 2 results cleared (recall_result brings them back)',
    );
  });

  it('says what a provider cleared when it reports it, and that it compacted when it does not', () => {
    const cleared = { kind: 'provider' as const, tokensBefore: 81_000, tokensAfter: 31_000, callIds: [] };
    expect(describeCompaction(cleared)).toBe('provider: 81,000 → 31,000 tokens');
    const opaque = { kind: 'provider' as const, tokensBefore: 12_000, tokensAfter: 12_000, callIds: [] };
    expect(describeCompaction(opaque)).toBe("provider: compacted on the provider's side, 12,000 prompt tokens after");
  });
});
