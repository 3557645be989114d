import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonObject } from '../../src/core/parse-json-object.js';

/** What a parse gives: its value, or that it threw (both parsers throw SyntaxError; the messages may differ). */
function outcome(parse: (text: string) => unknown, text: string): { value: unknown } | { threw: string } {
  try {
    return { value: parse(text) };
  } catch (error) {
    return { threw: (error as Error).name };
  }
}

/** Deep equality that also tells -0 from 0, key order and prototypes apart (toStrictEqual sorts no keys but ignores order). */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const ka = Reflect.ownKeys(a);
  const kb = Reflect.ownKeys(b);
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return false;
  return ka.every((k) => same((a as Record<PropertyKey, unknown>)[k], (b as Record<PropertyKey, unknown>)[k]));
}

function expectSameAsJsonParse(text: string): void {
  const ours = outcome(parseJsonObject, text);
  const theirs = outcome(JSON.parse, text);
  if ('threw' in theirs) expect(ours, text).toEqual(theirs);
  else {
    expect('value' in ours, text).toBe(true);
    expect(same((ours as { value: unknown }).value, theirs.value), text).toBe(true);
  }
}

const space = fc.constantFrom('', '', '', ' ', '\n', '\t', '\r', '  ', ' \n ');
const key = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
  fc.constantFrom('__proto__', 'constructor', 'toString', '0', '12', '-0', '4294967295', '城市', 'a"b', 'a\\b', 'k\n'),
);
/** A value's JSON text: mostly scalars, written as JSON.stringify writes them or in the other forms JSON allows. */
const valueText = fc.oneof(
  fc.integer().map(String),
  fc.double().map((d) => JSON.stringify(d)),
  fc.constantFrom('0', '-0', '-0.0', '1e5', '1E-3', '2e+2', '123456789012345678', '9007199254740993', '0.1', '1e400'),
  fc.constantFrom('01', '1.', '-', '.5', '1e', '+1', '0x10', 'NaN', 'Infinity', 'tru', 'nul', 'falsey'),
  fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)),
  fc.string({ unit: 'binary', maxLength: 6 }).map((s) => JSON.stringify(s)),
  fc.constantFrom('"a\\nb"', '"\\u4e2d"', '"tab\there"', '"北京的天气"', '"\ud800"', 'true', 'false', 'null'),
  fc.constantFrom('{}', '[]', '{"x":1}', '[1,"a"]', '{"y":{"z":null}}'),
);
const objectText = fc.array(fc.tuple(space, key, space, space, valueText, space), { maxLength: 6 }).chain((members) =>
  fc.tuple(space, space).map(([inner, outer]) => {
    const body = members.map(([a, k, b, c, v, d]) => `${a}${JSON.stringify(k)}${b}:${c}${v}${d}`).join(',');
    return `{${inner}${body}}${outer}`;
  }),
);
/** A text broken at one place: cut short, a character put in, or one taken out. */
const broken = fc
  .tuple(objectText, fc.nat(), fc.string({ unit: 'binary', maxLength: 1 }), fc.nat(2))
  .map(([text, at, char, how]) => {
    const i = text.length ? at % text.length : 0;
    if (how === 0) return text.slice(0, i);
    if (how === 1) return text.slice(0, i) + char + text.slice(i);
    return text.slice(0, i) + text.slice(i + 1);
  });

describe('parseJsonObject', () => {
  it('reads flat objects of numbers, strings, booleans and nulls as JSON.parse does', () => {
    for (const text of [
      '{"a":1,"b":1}',
      '{"city":"Paris","unit":"celsius"}',
      '{"query":"北京的天气","limit":5}',
      '{}',
      '{"n":-0}',
      '{"x":0.1,"y":-2.5e-3,"z":1E400}',
      '{"big":123456789012345678}',
      '{"ok":true,"no":false,"none":null}',
      '{"a":1,"a":2}',
      '{"2":"b","1":"a"}',
    ]) {
      expectSameAsJsonParse(text);
    }
    expect(parseJsonObject('{"a":1,"b":"x"}')).toEqual({ a: 1, b: 'x' });
  });

  it('leaves everything else to JSON.parse: the same value or the same SyntaxError', () => {
    for (const text of [
      '{"__proto__":{"polluted":1}}',
      '{"a":{"b":[1,2]}}',
      '{"a":"line\\nbreak"}',
      ' {"a":1}',
      '{"a":1} ',
      '{"a":1',
      '{"a":01}',
      '{"a":1.}',
      "{'a':1}",
      '{"a":1,}',
      '{"a":"\u0001"}',
      '{a:1}',
      '',
      '{',
      '[1]',
    ]) {
      expectSameAsJsonParse(text);
    }
    expect(Object.getPrototypeOf(parseJsonObject('{"__proto__":{"polluted":1}}'))).toBe(Object.prototype);
  });

  it('agrees with JSON.parse on random object texts', () => {
    fc.assert(fc.property(objectText, expectSameAsJsonParse), { numRuns: 3000 });
  });

  it('agrees with JSON.parse on random broken texts', () => {
    fc.assert(fc.property(broken, expectSameAsJsonParse), { numRuns: 3000 });
  });
});
