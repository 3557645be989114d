import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalHash, createRepetitionTracker } from '../../src/agent/guards/repetition-guard.js';
import { canonicalJson } from '../../src/agent/index.js';

describe('canonicalJson', () => {
  it('treats key order, surrounding whitespace and JSON text as the same arguments', () => {
    const key = canonicalJson({ b: 1, a: ' x ', nested: { z: [' y', { d: 2, c: 1 }], m: null } });
    expect(canonicalJson({ nested: { m: null, z: ['y', { c: 1, d: 2 }] }, a: 'x', b: 1 })).toBe(key);
    expect(canonicalJson('  {"a":"x","nested":{"z":["y",{"c":1,"d":2}],"m":null},"b":1}')).toBe(key);
    expect(canonicalJson({ a: 'x', b: 1, gone: undefined, nested: { m: null, z: ['y', { c: 1, d: 2 }] } })).toBe(key);
  });

  it('keeps different arguments apart', () => {
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
    expect(canonicalJson('Paris')).not.toBe(canonicalJson('Rome'));
  });

  it('gives every reordering of an object the key of the object itself, and leaves the input alone', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        const before = JSON.stringify(value);
        const reversed = Object.fromEntries(Object.entries(value).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(value));
        expect(canonicalJson(JSON.stringify(reversed))).toBe(canonicalJson(value));
        expect(JSON.stringify(value)).toBe(before);
      }),
      { numRuns: 500 },
    );
  });

  it('canonicalHash: the same for the same canonical JSON, apart for different (the repetition guard keys on it)', () => {
    const value = fc.oneof(
      fc.jsonValue(),
      fc.string(),
      fc.constantFrom(' x ', 'x', -0, 0, Number.NaN, null, { a: undefined }),
    );
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(canonicalHash(a) === canonicalHash(b)).toBe(canonicalJson(a) === canonicalJson(b));
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        const reversed = Object.fromEntries(Object.entries(value).reverse());
        expect(canonicalHash(reversed)).toBe(canonicalHash(value));
        expect(canonicalHash(` ${JSON.stringify(reversed)}`)).toBe(canonicalHash(value));
      }),
      { numRuns: 500 },
    );
    expect(canonicalHash({ b: 1, a: ' x ' })).toBe(canonicalHash({ a: 'x', b: 1, c: undefined }));
    expect(canonicalHash({ a: 1 })).not.toBe(canonicalHash({ a: '1' }));
    expect(canonicalHash({ a: [1, 2] })).not.toBe(canonicalHash({ a: [2, 1] }));
    expect(canonicalHash({ a: 2 ** 40 })).not.toBe(canonicalHash({ a: 2 ** 40 + 1 }));
  });

  it('the repetition tracker counts each call, tool name in any case, before and after it holds too many to scan', () => {
    const tracker = createRepetitionTracker();
    const verdict = (tool: string, input: unknown) => {
      const seen = tracker.check(tool, input);
      return seen.stop ? 'stop' : seen.warning ? 'warn' : 'first';
    };
    // 40 distinct calls: past the scanned few, the tracker keeps them in a table.
    for (let i = 0; i < 40; i++) expect(verdict('search', { q: `query ${i}` })).toBe('first');
    expect(verdict('Search', { q: ' query 0 ' })).toBe('warn');
    expect(verdict('search', { q: 'query 39' })).toBe('warn');
    expect(verdict('lookup', { q: 'query 39' })).toBe('first');
    expect(verdict('SEARCH', '{"q":"query 0"}')).toBe('stop');
    // Before the table: the same rules.
    const early = createRepetitionTracker();
    expect(early.check('a', { x: 1 }).warning).toBeUndefined();
    expect(early.check('A', { x: 1 }).warning).toContain('already called A');
    expect(early.check('a', { x: 1 }).stop?.code).toBe('repeated_call');
  });
});
