/**
 * JSON values as the function-calling leaderboard's checker sees them: read by Python's `json.loads`,
 * typed by Python's `type()` and compared by Python's `==`. JavaScript reads `5.0` and `5` alike; Python
 * reads a float and an int, and the checker's type rules tell them apart. So a model's raw argument text
 * is read here with its float literals kept as `PyFloat`.
 */

/** A number written as a float literal (`5.0`, `1e3`, `NaN`, `Infinity`): a Python `float`. */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** The Python types the checker tells apart. */
export type PyType = 'str' | 'int' | 'float' | 'bool' | 'list' | 'dict' | 'none';

/** Why a text is not JSON to Python's `json.loads`. */
export class PyJsonError extends Error {}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const CONSTANTS: readonly [string, unknown][] = [
  ['true', true],
  ['false', false],
  ['null', null],
  ['NaN', new PyFloat(Number.NaN)],
  ['Infinity', new PyFloat(Number.POSITIVE_INFINITY)],
  ['-Infinity', new PyFloat(Number.NEGATIVE_INFINITY)],
];

/**
 * Reads JSON text as Python's `json.loads` does: strict JSON plus `NaN`, `Infinity` and `-Infinity`;
 * a number with a fraction or an exponent is a `PyFloat`, any other a JavaScript number (an int; ints
 * beyond 2^53 lose precision, which Python's do not). Throws `PyJsonError` where Python raises.
 *
 * @example
 * readPyJson('{"days": 5.0, "n": 5}'); // { days: PyFloat(5), n: 5 }
 */
export function readPyJson(text: string): unknown {
  let at = 0;
  const fail = (what: string): never => {
    throw new PyJsonError(`${what} at character ${at}`);
  };
  const space = () => {
    for (let c = text.charCodeAt(at); c === 32 || c === 9 || c === 10 || c === 13; c = text.charCodeAt(at)) at++;
  };
  const expect = (char: string) => {
    space();
    if (text[at] !== char) fail(`Expecting '${char}'`);
    at++;
  };
  /** Steps over `char` when it comes next. */
  const closes = (char: string): boolean => {
    space();
    if (text[at] !== char) return false;
    at++;
    return true;
  };
  const string = (): string => {
    const start = at;
    let escaped = false;
    at++;
    for (;;) {
      const c = text.charCodeAt(at);
      if (Number.isNaN(c) || c < 0x20) fail('Unterminated string or control character');
      if (c === 34) break;
      if (c === 92) escaped = true;
      at += c === 92 ? 2 : 1;
    }
    at++;
    if (!escaped) return text.slice(start + 1, at - 1);
    try {
      return JSON.parse(text.slice(start, at)) as string;
    } catch {
      return fail('Invalid escape in string');
    }
  };
  const value = (): unknown => {
    space();
    const c = text[at];
    if (c === '"') return string();
    if (c === '{') {
      at++;
      const object: Record<string, unknown> = {};
      if (closes('}')) return object;
      for (;;) {
        space();
        if (text[at] !== '"') fail('Expecting property name enclosed in double quotes');
        const key = string();
        expect(':');
        // defineProperty: a key such as "__proto__" is data, as in a Python dict.
        Object.defineProperty(object, key, { value: value(), enumerable: true, writable: true, configurable: true });
        if (closes('}')) return object;
        expect(',');
      }
    }
    if (c === '[') {
      at++;
      const list: unknown[] = [];
      if (closes(']')) return list;
      for (;;) {
        list.push(value());
        if (closes(']')) return list;
        expect(',');
      }
    }
    // A word (true, NaN, -Infinity…) is tried only where no digit starts a number.
    const digit = /[0-9]/.test(text[at] === '-' ? (text[at + 1] ?? '') : (c ?? ''));
    for (const [word, constant] of digit ? [] : CONSTANTS) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return constant;
      }
    }
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(text);
    if (!number) return fail('Expecting value');
    at += number[0].length;
    const read = Number(number[0]);
    return number[1] !== undefined || number[2] !== undefined ? new PyFloat(read) : read;
  };
  const read = value();
  space();
  if (at < text.length) fail('Extra data');
  return read;
}

/** Whether `value` is a plain JSON object (a Python dict). */
export function isDict(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof PyFloat);
}

/** An own key of a dict (never one inherited, such as `constructor`). */
export const hasKey = (dict: object, key: string): boolean => Object.hasOwn(dict, key);

/**
 * Whether `type(value) == t` in Python. With `exact` (the value was read from the model's raw text), an
 * integral JavaScript number is an int; without it (an already parsed value, its literal unknown) it may
 * have been written `5` or `5.0`, so it counts as either.
 */
export function isPyType(value: unknown, t: PyType, exact: boolean): boolean {
  if (value instanceof PyFloat) return t === 'float';
  if (typeof value === 'number')
    return Number.isInteger(value) ? t === 'int' || (!exact && t === 'float') : t === 'float';
  if (typeof value === 'string') return t === 'str';
  if (typeof value === 'boolean') return t === 'bool';
  if (value === null) return t === 'none';
  if (Array.isArray(value)) return t === 'list';
  return isDict(value) && t === 'dict';
}

/**
 * The Python type of an allowed value (an expected answer). Read from JSON text with its literals
 * (`exact`: `readPyJson`, floats as `PyFloat`), an integral number is an int. Parsed by JavaScript, its
 * literal is lost, and an integral number in a slot typed float reads as a float: the leaderboard's
 * answers mostly write floats there (`[5.0]`, which JavaScript reads as 5; `[5]` is rarer).
 */
export function answerType(value: unknown, slot: PyType | undefined, exact = false): PyType | undefined {
  if (value instanceof PyFloat) return 'float';
  if (typeof value === 'number') return Number.isInteger(value) && (exact || slot !== 'float') ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (value === null) return 'none';
  if (Array.isArray(value)) return 'list';
  return isDict(value) ? 'dict' : undefined;
}

function numeric(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (value instanceof PyFloat) return value.value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return undefined;
}

/** Python's `==` on JSON values: numbers and booleans by value (True == 1 == 1.0), lists in order, dicts by key. */
export function pyEquals(a: unknown, b: unknown): boolean {
  if (a === b) return typeof a !== 'number' || !Number.isNaN(a);
  const x = numeric(a);
  const y = numeric(b);
  if (x !== undefined || y !== undefined) return x === y;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => pyEquals(item, b[i]));
  if (!isDict(a) || !isDict(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => hasKey(b, k) && pyEquals(a[k], b[k]));
}

/** `value in allowed`, by Python's `==`. */
export const pyIn = (value: unknown, allowed: readonly unknown[]): boolean => allowed.some((a) => pyEquals(value, a));

/** A value as text for a reason, floats written as Python writes them (`5.0`). */
export function pyRepr(value: unknown): string {
  if (value instanceof PyFloat) {
    const v = value.value;
    return Number.isInteger(v)
      ? `${v}.0`
      : Number.isNaN(v)
        ? 'nan'
        : Number.isFinite(v)
          ? String(v)
          : v > 0
            ? 'inf'
            : '-inf';
  }
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (isDict(value))
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pyRepr(v)}`)
      .join(', ')}}`;
  return value === undefined ? 'undefined' : JSON.stringify(value);
}
