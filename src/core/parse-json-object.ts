/**
 * `JSON.parse(text)` for a tool call's arguments, faster where they are what models mostly send: one flat
 * object of numbers, strings without escapes, booleans and nulls (`{"city":"Paris","days":3}`). Those are
 * read here in JavaScript; any other text (nesting, an escape, a key `__proto__`, whitespace around the
 * object, anything invalid) goes to `JSON.parse` as it is, so the value, or the error thrown, is exactly
 * `JSON.parse`'s (a property test compares the two on random and broken texts).
 *
 * Why: on Node 20, `JSON.parse('{"a":1,"b":1}')` costs about 170 ns (an entry into the runtime and a
 * generic object build), a third of a bare hand-written agent's step; this reads it in about 60 ns. With
 * string values the saving is smaller (about a quarter), as each string is copied out either way.
 *
 * @example
 * parseJsonObject('{"city":"Paris","days":3}'); // { city: 'Paris', days: 3 }
 * parseJsonObject('{"q":{"deep":true}}'); // read by JSON.parse: { q: { deep: true } }
 */
export function parseJsonObject(text: string): unknown {
  return (text.charCodeAt(0) === OPEN && flatObject(text)) || JSON.parse(text);
}

const OPEN = 123; // {
const CLOSE = 125; // }
const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;
const COMMA = 44;
const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const NINE = 57;

/** The first position from `at` that is not JSON whitespace (space, tab, line feed, carriage return). */
function skipSpace(s: string, at: number): number {
  let c = s.charCodeAt(at);
  while (c === 32 || c === 10 || c === 13 || c === 9) c = s.charCodeAt(++at);
  return at;
}

/** The position of the quote closing a string whose content starts at `at`, or -1 (an escape, a control character, no end). */
function stringEnd(s: string, at: number): number {
  for (let c = s.charCodeAt(at); c !== QUOTE; c = s.charCodeAt(++at)) {
    // NaN (past the end) fails `c >= 32`, as a control character does.
    if (c === BACKSLASH || !(c >= 32)) return -1;
  }
  return at;
}

/** One past the end of a JSON number starting at `at`, or -1 when its grammar is broken. */
function numberEnd(s: string, at: number): number {
  let c = s.charCodeAt(at);
  if (c === MINUS) c = s.charCodeAt(++at);
  if (c === ZERO) c = s.charCodeAt(++at);
  else if (c > ZERO && c <= NINE) {
    do c = s.charCodeAt(++at);
    while (c >= ZERO && c <= NINE);
  } else return -1;
  if (c === DOT) {
    c = s.charCodeAt(++at);
    if (!(c >= ZERO && c <= NINE)) return -1;
    do c = s.charCodeAt(++at);
    while (c >= ZERO && c <= NINE);
  }
  if (c === 101 || c === 69 /* e E */) {
    c = s.charCodeAt(++at);
    if (c === 43 || c === MINUS) c = s.charCodeAt(++at);
    if (!(c >= ZERO && c <= NINE)) return -1;
    do c = s.charCodeAt(++at);
    while (c >= ZERO && c <= NINE);
  }
  return at;
}

/** A short integer's value read from its digits (at most 15, so it is exact), else undefined. */
function smallInteger(s: string, from: number, to: number): number | undefined {
  const negative = s.charCodeAt(from) === MINUS;
  let at = negative ? from + 1 : from;
  if (to - at > 15) return undefined;
  let n = 0;
  for (; at < to; at++) {
    const c = s.charCodeAt(at);
    if (c < ZERO || c > NINE) return undefined;
    n = n * 10 + (c - ZERO);
  }
  return negative ? -n : n;
}

/** The flat object `s` holds (it starts with `{`), or undefined for anything this does not read. */
function flatObject(s: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  let at = skipSpace(s, 1);
  if (s.charCodeAt(at) === CLOSE) return at === s.length - 1 ? out : undefined;
  for (;;) {
    if (s.charCodeAt(at) !== QUOTE) return undefined;
    const keyEnd = stringEnd(s, at + 1);
    if (keyEnd < 0) return undefined;
    const key = s.slice(at + 1, keyEnd);
    // JSON.parse makes `__proto__` an own property; an assignment would set the prototype.
    if (key === '__proto__') return undefined;
    at = skipSpace(s, keyEnd + 1);
    if (s.charCodeAt(at) !== COLON) return undefined;
    at = skipSpace(s, at + 1);
    const c = s.charCodeAt(at);
    if (c === QUOTE) {
      const end = stringEnd(s, at + 1);
      if (end < 0) return undefined;
      out[key] = s.slice(at + 1, end);
      at = end + 1;
    } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
      const end = numberEnd(s, at);
      if (end < 0) return undefined;
      // Number() rounds a decimal text as JSON.parse does (both are V8's one string-to-double).
      out[key] = smallInteger(s, at, end) ?? Number(s.slice(at, end));
      at = end;
    } else if (c === 116 /* t */ && s.startsWith('true', at)) {
      out[key] = true;
      at += 4;
    } else if (c === 102 /* f */ && s.startsWith('false', at)) {
      out[key] = false;
      at += 5;
    } else if (c === 110 /* n */ && s.startsWith('null', at)) {
      out[key] = null;
      at += 4;
    } else return undefined;
    at = skipSpace(s, at);
    const next = s.charCodeAt(at);
    if (next === CLOSE) return at === s.length - 1 ? out : undefined;
    if (next !== COMMA) return undefined;
    at = skipSpace(s, at + 1);
  }
}
