import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitsWithin } from '../../src/tools/fits-within.js';

describe('fitsWithin', () => {
  it('never says a value fits when its JSON is longer than the limit', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 400 }), (value, limit) => {
        if (fitsWithin(value, limit)) expect(JSON.stringify(value).length).toBeLessThanOrEqual(limit);
      }),
      { numRuns: 2000 },
    );
  });

  it('lets small arguments through without serializing them', () => {
    expect(fitsWithin({ city: 'Paris', days: 3, metric: true, tags: ['a', null] }, 4000)).toBe(true);
    expect(fitsWithin({ text: 'x'.repeat(5000) }, 4000)).toBe(false);
  });

  it('sends values JSON serializes differently, and cycles, to the exact path', () => {
    expect(fitsWithin({ when: new Date(0) }, 4000)).toBe(false);
    expect(fitsWithin({ n: 1n }, 4000)).toBe(false);
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(fitsWithin(cyclic, 4000)).toBe(false);
  });
});
