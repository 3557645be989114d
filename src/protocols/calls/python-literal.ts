/**
 * The one small reader for Python literals and call expressions as models write them in tool calls:
 * `[get_weather(city='Paris', days=3), math.factorial(number=5)]`, `f(a=True, b=None, c=(1, 2))`,
 * `{'k': [1, -2.5e3]}`. It reads values into JSON: `True/False/None` (and JSON's spellings), single,
 * double and triple quotes with escapes and string prefixes, tuples and sets as arrays, nested lists
 * and dicts, negative and scientific numbers, arithmetic on numbers (`10**6`), bare names as strings.
 * Never evaluates anything and never throws: a read that fails returns undefined. Depth is bounded.
 */

/** One call expression: its dotted name and its input (keyword arguments as an object). */
export interface PythonCall {
  name: string;
  input: Record<string, unknown> | unknown[] | string;
}

const MAX_DEPTH = 64;
const NAME_START = /[\p{L}_$]/u;
const NAME_PART = /[\p{L}\p{N}_$]/u;

/** A cursor over the text; every reader returns FAIL instead of throwing. */
interface Cursor {
  text: string;
  at: number;
  depth: number;
  /** Extra quote delimiters some templates use for strings (`<escape>`, `<|"|>`). */
  quotes: readonly string[];
}

const FAIL = Symbol('fail');
type Read<T> = T | typeof FAIL;

/**
 * Reads calls written as Python: a list `[f(a=1), g(b=2)]`, or calls separated by `,`, `;` or line
 * breaks (`f(a=1); g(b=2)`). The whole text must be calls; undefined otherwise.
 */
export function readPythonCalls(text: string, quotes: readonly string[] = []): PythonCall[] | undefined {
  const cur: Cursor = { text, at: 0, depth: 0, quotes };
  skipSpace(cur);
  const bracketed = text.charCodeAt(cur.at) === 91; /* [ */
  if (bracketed) cur.at++;
  const calls: PythonCall[] = [];
  for (;;) {
    skipSpace(cur);
    if (cur.at >= text.length) break;
    if (bracketed && text[cur.at] === ']') {
      cur.at++;
      skipSpace(cur);
      while (text[cur.at] === ';') cur.at++; // `[f()];`
      skipSpace(cur);
      if (cur.at < text.length) return undefined;
      break;
    }
    const call = readCall(cur);
    if (call === FAIL) return undefined;
    calls.push(call);
    skipSpace(cur);
    const sep = text[cur.at];
    if (sep === ',' || sep === ';') cur.at++;
  }
  return calls.length > 0 || bracketed ? calls : undefined;
}

/** The calls of one statement and where it ends. */
export interface CallStatement {
  calls: PythonCall[];
  /** Index in the text just after the statement. */
  end: number;
  /** Written as a list (`[f(), g()]`) rather than bare calls. */
  bracketed: boolean;
}

/** How far one statement is read before it is given up: a bound on the work a line can cause. */
const STATEMENT_LIMIT = 16_384;

/**
 * Reads the calls of one statement starting at `at`: a list `[f(a=1), g()]` (which may span lines) or
 * bare calls separated by `,` or `;` on one line (`f(a=1); g(b=2)`). Undefined when it is not calls.
 */
export function readCallStatement(text: string, at: number, quotes: readonly string[] = []): CallStatement | undefined {
  const slice = text.slice(at, at + STATEMENT_LIMIT);
  const cur: Cursor = { text: slice, at: 0, depth: 0, quotes };
  const bracketed = slice[0] === '[';
  if (bracketed) cur.at++;
  const calls: PythonCall[] = [];
  for (;;) {
    skipSpace(cur);
    if (bracketed && slice[cur.at] === ']') {
      cur.at++;
      break;
    }
    if (bracketed && QUOTES.has(slice[cur.at])) {
      // A call written as a string in the list (`['f(a=1)', 'g(b=2)']`, `` [`f(a=1)`] ``).
      const quoted = readQuotedCalls(cur);
      if (!quoted) return undefined;
      calls.push(...quoted);
    } else {
      const call = readCall(cur);
      if (call === FAIL) return undefined;
      calls.push(call);
    }
    skipInline(cur);
    const sep = slice[cur.at];
    if (sep === ',' || sep === ';') {
      cur.at++;
      if (!bracketed) {
        skipInline(cur);
        if (!NAME_START.test(slice[cur.at] ?? '')) break;
      }
    } else if (!bracketed) break;
    else if (slice[cur.at] !== ']' && !/\s/.test(slice[cur.at] ?? '')) return undefined;
  }
  return calls.length > 0 ? { calls, end: at + cur.at, bracketed } : undefined;
}

const QUOTES = new Set(['"', "'", '`']);

/** The calls inside one quoted element of a call list; undefined when it holds anything else. */
function readQuotedCalls(cur: Cursor): PythonCall[] | undefined {
  const q = cur.text[cur.at];
  let inner: Read<string>;
  if (q === '`') {
    const end = cur.text.indexOf('`', cur.at + 1);
    if (end < 0) return undefined;
    inner = cur.text.slice(cur.at + 1, end);
    cur.at = end + 1;
  } else inner = readString(cur);
  if (inner === FAIL || !inner.includes('(')) return undefined;
  const calls = readPythonCalls(inner, cur.quotes);
  return calls?.length ? calls : undefined;
}

function skipInline(cur: Cursor): void {
  while (cur.text[cur.at] === ' ' || cur.text[cur.at] === '\t') cur.at++;
}

/** Reads one Python literal (the whole text). Undefined when it is not one. */
export function readPythonValue(text: string, quotes: readonly string[] = []): { value: unknown } | undefined {
  const cur: Cursor = { text, at: 0, depth: 0, quotes };
  const value = readExpression(cur);
  skipSpace(cur);
  return value === FAIL || cur.at < text.length ? undefined : { value };
}

/** `name(args)`, where name may be dotted (`math.factorial`) or slashed (`fs/read_file`). */
function readCall(cur: Cursor): Read<PythonCall> {
  const name = readName(cur, true);
  if (!name) return FAIL;
  skipSpace(cur);
  if (cur.text[cur.at] !== '(') return FAIL;
  cur.at++;
  const args = readArguments(cur, ')');
  if (args === FAIL) return FAIL;
  return { name, input: args };
}

/** Arguments up to `close`: keyword arguments make an object; positional ones a value or an array. */
function readArguments(cur: Cursor, close: string): Read<PythonCall['input']> {
  const keywords: Record<string, unknown> = {};
  const positional: unknown[] = [];
  let hasKeywords = false;
  for (;;) {
    const next = nextItem(cur, close);
    if (next === FAIL) return FAIL;
    if (next === 'closed') break;
    const start = cur.at;
    const key = readName(cur, false);
    skipSpace(cur);
    if (key && (cur.text[cur.at] === '=' || cur.text[cur.at] === ':') && cur.text[cur.at + 1] !== '=') {
      cur.at++;
      const value = readExpression(cur);
      if (value === FAIL) return FAIL;
      keywords[key] = value;
      hasKeywords = true;
    } else {
      cur.at = start;
      const value = readExpression(cur);
      if (value === FAIL) return FAIL;
      positional.push(value);
    }
    skipSpace(cur);
    if (cur.text[cur.at] === ',') cur.at++;
    else if (cur.text[cur.at] !== close) return FAIL;
  }
  if (hasKeywords) return keywords;
  if (positional.length === 0) return {};
  if (positional.length === 1) {
    const only = positional[0];
    if (typeof only === 'string' || (typeof only === 'object' && only !== null)) {
      return only as Record<string, unknown> | unknown[] | string;
    }
    return String(only);
  }
  return positional;
}

const BINARY: Record<string, number> = { '+': 1, '-': 1, '*': 2, '/': 2, '//': 2, '%': 2, '**': 3 };

/** A value, with arithmetic between numbers (`2*3`, `10**6`); anything else is its source text. */
function readExpression(cur: Cursor, minPrecedence = 1): Read<unknown> {
  const start = cur.at;
  let left = readUnary(cur);
  if (left === FAIL) return FAIL;
  for (;;) {
    const save = cur.at;
    skipSpace(cur);
    const op = binaryOperator(cur.text, cur.at);
    if (!op || BINARY[op] < minPrecedence) {
      cur.at = save;
      return left;
    }
    cur.at += op.length;
    const right = readExpression(cur, op === '**' ? BINARY[op] : BINARY[op] + 1);
    if (right === FAIL) return FAIL;
    left =
      typeof left === 'number' && typeof right === 'number'
        ? arithmetic(op, left, right)
        : typeof left === 'string' && typeof right === 'string' && op === '+'
          ? left + right
          : cur.text.slice(start, cur.at).trim();
  }
}

function binaryOperator(text: string, at: number): string | undefined {
  const two = text.slice(at, at + 2);
  if (two === '**' || two === '//') return two;
  const one = text[at];
  return one === '+' || one === '-' || one === '*' || one === '/' || one === '%' ? one : undefined;
}

function arithmetic(op: string, a: number, b: number): number | string {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return b === 0 ? `${a} / ${b}` : a / b;
    case '//':
      return b === 0 ? `${a} // ${b}` : Math.floor(a / b);
    case '%':
      return b === 0 ? `${a} % ${b}` : a % b;
    default:
      return a ** b;
  }
}

function readUnary(cur: Cursor): Read<unknown> {
  skipSpace(cur);
  const c = cur.text[cur.at];
  if (c === '-' || c === '+') {
    cur.at++;
    const value = readUnary(cur);
    if (value === FAIL) return FAIL;
    if (typeof value === 'number') return c === '-' ? -value : value;
    return FAIL;
  }
  return readAtom(cur);
}

function readAtom(cur: Cursor): Read<unknown> {
  if (cur.depth >= MAX_DEPTH) return FAIL;
  skipSpace(cur);
  const { text } = cur;
  const c = text[cur.at];
  if (c === undefined) return FAIL;
  for (const quote of cur.quotes) if (text.startsWith(quote, cur.at)) return readDelimited(cur, quote);
  if (c === '"' || c === "'") return readStrings(cur);
  if (c === '[' || c === '(' || c === '{') return nested(cur, c);
  if ((c >= '0' && c <= '9') || c === '.') return readNumber(cur);
  const start = cur.at;
  const name = readName(cur, true);
  if (!name) return FAIL;
  // String prefixes: r'…', b"…", f'…', u'…', rb'…'.
  if (/^[rRbBuUfF]{1,2}$/.test(name) && (text[cur.at] === '"' || text[cur.at] === "'")) return readStrings(cur);
  const constant = CONSTANTS.get(name);
  if (constant !== undefined) return constant.value;
  let end = cur.at;
  skipSpace(cur);
  if (text[cur.at] !== '(' && text[cur.at] !== '[') {
    cur.at = end;
    return name;
  }
  // A nested call, a subscript or both (`datetime.now()`, `data['sales']`, `f(x)[0].y`): its source text.
  while (text[cur.at] === '(' || text[cur.at] === '[') {
    const open = text[cur.at];
    cur.at++;
    cur.depth++;
    const inner = open === '(' ? readArguments(cur, ')') : readArguments(cur, ']');
    cur.depth--;
    if (inner === FAIL) return FAIL;
    end = cur.at;
    if (text[cur.at] === '.' && readName({ ...cur, at: cur.at + 1 }, true)) {
      cur.at++;
      readName(cur, true);
      end = cur.at;
    }
  }
  return text.slice(start, end);
}

const CONSTANTS = new Map<string, { value: unknown }>([
  ['True', { value: true }],
  ['False', { value: false }],
  ['None', { value: null }],
  ['true', { value: true }],
  ['false', { value: false }],
  ['null', { value: null }],
  ['inf', { value: 'inf' }],
]);

/** A list, tuple, set or dict; the opener is at the cursor. */
function nested(cur: Cursor, open: string): Read<unknown> {
  cur.at++;
  cur.depth++;
  const close = open === '[' ? ']' : open === '(' ? ')' : '}';
  const items: unknown[] = [];
  const dict: Record<string, unknown> = {};
  let isDict = false;
  let sawComma = false;
  for (;;) {
    const next = nextItem(cur, close);
    if (next === FAIL) return FAIL;
    if (next === 'closed') break;
    const first = open === '{' ? readKey(cur) : readExpression(cur);
    if (first === FAIL) return FAIL;
    skipSpace(cur);
    if (open === '{' && cur.text[cur.at] === ':') {
      cur.at++;
      const value = readExpression(cur);
      if (value === FAIL) return FAIL;
      dict[typeof first === 'string' ? first : JSON.stringify(first)] = value;
      isDict = true;
    } else items.push(first);
    skipSpace(cur);
    if (cur.text[cur.at] === ',') {
      cur.at++;
      sawComma = true;
    } else if (cur.text[cur.at] !== close) return FAIL;
  }
  cur.depth--;
  if (open === '{') return isDict || items.length === 0 ? dict : items;
  // `(x)` is a parenthesised value, `(x,)` a one-item tuple.
  if (open === '(' && items.length === 1 && !sawComma) return items[0];
  return items;
}

/** A dict key: any literal, or a bare name (as template formats write `{city: "Paris"}`). */
function readKey(cur: Cursor): Read<unknown> {
  const start = cur.at;
  const name = readName(cur, false);
  if (name && !CONSTANTS.has(name)) {
    const save = cur.at;
    skipSpace(cur);
    if (cur.text[cur.at] === ':') return name;
    cur.at = save;
  }
  cur.at = start;
  return readExpression(cur);
}

function readName(cur: Cursor, dotted: boolean): string | undefined {
  const { text } = cur;
  const start = cur.at;
  if (!NAME_START.test(text[cur.at] ?? '')) return undefined;
  cur.at++;
  while (cur.at < text.length) {
    const c = text[cur.at];
    if (
      NAME_PART.test(c) ||
      c === '-' ||
      (dotted && (c === '.' || c === '/') && NAME_START.test(text[cur.at + 1] ?? ''))
    ) {
      cur.at++;
    } else break;
  }
  // A name never ends in `-` (that is an operator: `x-1`).
  while (text[cur.at - 1] === '-' && cur.at > start + 1) cur.at--;
  return text.slice(start, cur.at);
}

function readNumber(cur: Cursor): Read<unknown> {
  const match = /^(?:0[xX][0-9a-fA-F_]+|(?:\d[\d_]*\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)[jJlL]?/.exec(
    cur.text.slice(cur.at, cur.at + 400),
  );
  if (!match) return FAIL;
  cur.at += match[0].length;
  const digits = match[0].replace(/_/g, '').replace(/[jJlL]$/, '');
  const value = Number(digits);
  return Number.isFinite(value) ? value : digits;
}

/** Adjacent string literals join, as in Python (`'a' 'b'` is `'ab'`). */
function readStrings(cur: Cursor): Read<string> {
  let out = '';
  for (;;) {
    const part = readString(cur);
    if (part === FAIL) return FAIL;
    out += part;
    const save = cur.at;
    skipSpace(cur);
    if (cur.text[cur.at] !== '"' && cur.text[cur.at] !== "'") {
      cur.at = save;
      return out;
    }
  }
}

function readString(cur: Cursor): Read<string> {
  const { text } = cur;
  const q = text[cur.at];
  const triple = text.startsWith(q.repeat(3), cur.at);
  const end = triple ? q.repeat(3) : q;
  cur.at += end.length;
  let out = '';
  while (cur.at < text.length) {
    const c = text[cur.at];
    if (c === '\\') {
      const [decoded, length] = readEscape(text, cur.at + 1);
      out += decoded;
      cur.at += 1 + length;
      continue;
    }
    if (text.startsWith(end, cur.at)) {
      cur.at += end.length;
      return out;
    }
    if (!triple && c === '\n') return FAIL;
    out += c;
    cur.at++;
  }
  return FAIL;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0', a: '\x07' };

/** One escape after a backslash: its text and how many characters it took. */
function readEscape(text: string, at: number): [string, number] {
  const c = text[at];
  if (c === undefined) return ['\\', 0];
  if (c === 'u' || c === 'x') {
    const size = c === 'u' ? 4 : 2;
    const hex = text.slice(at + 1, at + 1 + size);
    if (hex.length === size && /^[0-9a-fA-F]+$/.test(hex))
      return [String.fromCharCode(Number.parseInt(hex, 16)), size + 1];
    return [`\\${c}`, 1];
  }
  if (c === '\n') return ['', 1];
  if (c in ESCAPES) return [ESCAPES[c], 1];
  if (c === '\\' || c === '"' || c === "'" || c === '/') return [c, 1];
  return [`\\${c}`, 1];
}

/** A string between template quote tokens (`<escape>…<escape>`, `<|"|>…<|"|>`), taken as written. */
function readDelimited(cur: Cursor, quote: string): Read<string> {
  const start = cur.at + quote.length;
  const end = cur.text.indexOf(quote, start);
  if (end < 0) return FAIL;
  cur.at = end + quote.length;
  return cur.text.slice(start, end);
}

/** Past the spaces before a list's next item: FAIL at the end of the text, 'closed' (and past it) at `close`. */
function nextItem(cur: Cursor, close: string): Read<'closed' | 'item'> {
  skipSpace(cur);
  if (cur.at >= cur.text.length) return FAIL;
  if (cur.text[cur.at] !== close) return 'item';
  cur.at++;
  return 'closed';
}

function skipSpace(cur: Cursor): void {
  const { text } = cur;
  while (cur.at < text.length) {
    const c = text.charCodeAt(cur.at);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 0xa0) cur.at++;
    else if (c === 92 /* \ */ && text.charCodeAt(cur.at + 1) === 10)
      cur.at += 2; // line continuation
    else break;
  }
}
