import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
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
});
