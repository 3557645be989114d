import { describe, expect, it } from 'vitest';
import { parseJsonLenient } from '../../src/core/index.js';

describe('parseJsonLenient', () => {
  it('reads strict JSON without marking it repaired', () => {
    expect(parseJsonLenient('{"city": "Paris"}')).toEqual({ ok: true, value: { city: 'Paris' }, repaired: false });
  });

  it('repairs JSON-ish text and marks it repaired', () => {
    expect(parseJsonLenient("{city: 'Paris', 'n': [1, 2,],}")).toEqual({
      ok: true,
      value: { city: 'Paris', n: [1, 2] },
      repaired: true,
    });
  });

  it('with repair off, reads strict JSON and reports the strict error for anything else', () => {
    expect(parseJsonLenient('42', { repair: false })).toEqual({ ok: true, value: 42, repaired: false });
    const read = parseJsonLenient("{city: 'Paris'}", { repair: false });
    expect(read.ok).toBe(false);
    expect(read.ok ? '' : read.error).toMatch(/JSON/);
  });

  it('returns the repair error instead of throwing when even jsonrepair cannot read the text', () => {
    const read = parseJsonLenient('{"a": 1} garbage {');
    expect(read.ok).toBe(false);
    expect(read.ok ? '' : read.error).toMatch(/Unexpected character/);
  });
});
