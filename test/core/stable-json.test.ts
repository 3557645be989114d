import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stableJson } from '../../src/core/index.js';

/** Fixed seed: a failure reproduces on every machine and every run. */
const RUNS = { seed: 20261201, numRuns: 400 };

/** The same value with every object's keys in reverse order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reverseKeys(v)]),
  );
}

describe('stableJson', () => {
  it('writes a JSON value as JSON.stringify does, keys sorted, so it parses back to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = stableJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(stableJson(reverseKeys(value))).toBe(text);
      }),
      RUNS,
    );
    expect(stableJson({ b: 1, a: [{ d: 2, c: 'x' }] })).toBe('{"a":[{"c":"x","d":2}],"b":1}');
  });

  it('honours toJSON: a Date is its ISO string, not {}', () => {
    expect(stableJson({ d: new Date(0) })).toBe('{"d":"1970-01-01T00:00:00.000Z"}');
    expect(stableJson({ at: new Date(0) })).not.toBe(stableJson({ at: new Date(1) }));
    expect(stableJson({ x: { toJSON: (key: string) => `key was ${key}` } })).toBe('{"x":"key was x"}');
    fc.assert(
      fc.property(fc.date(), (date) => {
        expect(stableJson({ date })).toBe(JSON.stringify({ date }));
      }),
      RUNS,
    );
  });

  it('refuses a circular value with a TypeError naming the loop, and accepts a value used twice', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = { inner: [a] };
    expect(() => stableJson(a)).toThrow(
      new TypeError('stableJson: the value is circular: $.self.inner[0] refers back to $.'),
    );
    const m = new Map<string, unknown>();
    m.set('me', m);
    expect(() => stableJson({ m })).toThrow(/circular/);
    const shared = { x: 1 };
    expect(stableJson({ p: shared, q: [shared, shared] })).toBe('{"p":{"x":1},"q":[{"x":1},{"x":1}]}');
  });

  it('handles BigInt, undefined, NaN, Map and Set deliberately', () => {
    expect(stableJson({ n: 10n })).toBe('{"n":{"$bigint":"10"}}');
    expect(stableJson({ n: 10n })).not.toBe(stableJson({ n: 10 }));
    expect(stableJson([undefined, () => 1, Symbol('s'), Number.NaN, -0, Number.POSITIVE_INFINITY])).toBe(
      '[null,null,null,null,0,null]',
    );
    expect(stableJson({ gone: undefined, f: () => 1, kept: null })).toBe('{"kept":null}');
    expect(stableJson(undefined)).toBe('null');
    expect(
      stableJson(
        new Map([
          ['b', 1],
          ['a', 2],
        ]),
      ),
    ).toBe('{"$map":[["a",2],["b",1]]}');
    expect(
      stableJson(
        new Map([
          ['a', 2],
          ['b', 1],
        ]),
      ),
    ).toBe(
      stableJson(
        new Map([
          ['b', 1],
          ['a', 2],
        ]),
      ),
    );
    expect(stableJson(new Map([['a', 1]]))).not.toBe(stableJson(new Map([['a', 2]])));
    expect(stableJson(new Set([3, 1, 2]))).toBe('{"$set":[1,2,3]}');
    expect(stableJson({ s: new String('x'), n: new Number(2) })).toBe('{"n":2,"s":"x"}');
    expect(stableJson(JSON.parse('{"__proto__":{"x":1},"a":2}'))).toBe('{"__proto__":{"x":1},"a":2}');
  });

  it('never throws on acyclic values of any kind, and ignores key order', () => {
    const anything = fc.anything({
      withBigInt: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withSparseArray: true,
      withObjectString: true,
      withBoxedValues: true,
    });
    fc.assert(
      fc.property(anything, (value) => {
        const text = stableJson(value);
        expect(() => JSON.parse(text)).not.toThrow();
        expect(stableJson(reverseKeys(value))).toBe(text);
      }),
      RUNS,
    );
  });
});
