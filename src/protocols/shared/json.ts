/**
 * JSON inside a reply and the action input written as text: where the JSON sits (fenced or in prose,
 * cut off or whole), and how an input becomes structured (JSON objects repaired with core's
 * `parseJsonLenient`, quoted strings decoded, commentary after a plain-text input dropped).
 */
import { type ActionInput, parseJsonLenient, type ReplyHabit } from '../../core/index.js';

/** Where a JSON value sits inside a reply. */
export interface JsonSpan {
  /** The JSON text (possibly incomplete when `truncated`). */
  json: string;
  /** The span ran to the end of the reply without closing its brackets or strings. */
  truncated: boolean;
  /** Truncated in the middle of a string (a value or key was cut, so it cannot be trusted). */
  cutInString: boolean;
  /** Index in the reply where the span starts. */
  start: number;
  /** Index just after the span. */
  end: number;
}

const JSON_FENCES = ['json', 'json5', 'jsonc', 'javascript', 'js', 'tool_call', 'tool_code'];
const FENCE = /```[ \t]*([\w-]*)[^\n]*\n([\s\S]*?)(?:```|$)/g;

/**
 * Finds the first JSON object or array in a reply: inside a ``` fence when there is one that
 * holds JSON, else the first balanced `{…}` or `[…]` in the prose. Strings and escapes are
 * respected, so braces inside strings do not count. Returns undefined when there is no `{` or `[`.
 */
export function extractJson(text: string): JsonSpan | undefined {
  if (!text.includes('```')) return scanFrom(text, firstOpener(text)); // no fence to look in or mask
  for (const fence of text.matchAll(FENCE)) {
    const lang = fence[1].toLowerCase();
    if (lang && !JSON_FENCES.includes(lang)) continue;
    const opener = firstOpener(fence[2]);
    if (opener < 0) continue;
    // Scan the whole text from the opener, not just the fence body: a string value may itself
    // contain ``` (a code block in action_input), which would end the fence early.
    const bodyStart = (fence.index ?? 0) + fence[0].indexOf('\n') + 1;
    return scanFrom(text, bodyStart + opener);
  }
  return scanFrom(text, firstOpener(maskOtherFences(text)));
}

/** The text with the bodies of code fences in other languages blanked out (offsets kept). */
function maskOtherFences(text: string): string {
  return text.replace(FENCE, (block, lang: string) =>
    lang && !JSON_FENCES.includes(lang.toLowerCase()) ? ' '.repeat(block.length) : block,
  );
}

/** The first `{` (or a `[` whose next non-space character starts a JSON value). */
function firstOpener(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{') return i;
    if (c === '[' && /^\[\s*[{["\d\-tfn\]]/.test(text.slice(i, i + 40))) return i;
  }
  return -1;
}

function scanFrom(text: string, start: number): JsonSpan | undefined {
  if (start < 0) return undefined;
  const stack: string[] = [];
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || (c === "'" && !/\w/.test(text[i - 1] ?? ''))) {
      i = closingQuote(text, i);
      if (i < 0) return cutOff(text, start, true);
    } else if (c === '{' || c === '[') stack.push(c === '{' ? '}' : ']');
    else if (c === '}' || c === ']') {
      // A mismatched closer ends the span too; jsonrepair gets to judge it.
      if (stack.pop() !== c || stack.length === 0) return whole(text, start, i + 1);
    }
  }
  return cutOff(text, start, false);
}

/**
 * Where the string opened by the quote at `at` closes (the same quote character, a backslash escaping
 * the character after it), or -1 when it never closes (a cut-off reply). The one reading of a quoted
 * string for the scanners that skip strings to find brackets and keywords outside them.
 */
export function closingQuote(text: string, at: number): number {
  const quote = text[at];
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === quote) return i;
  }
  return -1;
}

function cutOff(text: string, start: number, cutInString: boolean): JsonSpan {
  return { json: text.slice(start).trimEnd(), truncated: true, cutInString, start, end: text.length };
}

function whole(text: string, start: number, end: number): JsonSpan {
  return { json: text.slice(start, end), truncated: false, cutInString: false, start, end };
}

/** True for a plain object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when a raw newline or tab sits inside a JSON string, which strict JSON forbids. */
export function hasRawControlInString(json: string): boolean {
  let quoted = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (quoted && c === 92 /* \ */) i++;
    else if (c === 34 /* " */) quoted = !quoted;
    else if (quoted && c < 32) return true;
  }
  return false;
}

/** An action input read out of text, or the reason it could not be. */
export type CoercedInput =
  | { ok: true; input: ActionInput; repaired: boolean; habits?: ReplyHabit[] }
  | { ok: false; reason: string };

/** How to read the text. */
export interface CoerceOptions {
  /**
   * Drop commentary after a plain-text input (a following paragraph, a trailing parenthetical).
   * Off for final answers, whose every paragraph is the answer.
   */
  commentary?: boolean;
}

const QUOTED: ReplyHabit[] = ['quoted_input'];
const COMMENTARY: ReplyHabit[] = ['trailing_commentary'];

const WHOLE_FENCE = /^```[\w-]*[^\n]*\n([\s\S]*?)(?:\n?```)?$/;

/**
 * Reads an action input written as text: a JSON object or array (fenced or not, repaired when
 * needed) stays structured; a JSON string literal is decoded (and read again when it encodes an
 * object); text in backticks or quotes is the text inside; anything else is the trimmed string, with
 * commentary after it dropped when asked. A JSON object cut off inside a string cannot be trusted and
 * is refused.
 */
export function coerceInput(raw: string, options: CoerceOptions = {}): CoercedInput {
  let text = raw.trim();
  const fence = WHOLE_FENCE.exec(text);
  if (fence && text.startsWith('```')) text = fence[1].trim();
  if (text.startsWith('{')) return readObject(text);
  if (text.startsWith('[')) {
    const array = readArray(text);
    if (array) return array;
  }
  if (options.commentary) {
    const kept = dropCommentary(text);
    if (kept !== text) {
      text = kept;
      if (text.startsWith('{')) return withInputHabits(readObject(text), COMMENTARY);
      return commentaryInput(text);
    }
  }
  // One JSON string, quote to quote: `"Foo" and "Bar"` is text that starts and ends with quotes, kept whole.
  if (/^"(?:[^"\\]|\\.)*"$/.test(text)) {
    const decoded = parseJsonLenient(text);
    if (decoded.ok && typeof decoded.value === 'string') {
      const inner = decoded.value.trim();
      if (inner.startsWith('{')) {
        const object = readObject(inner);
        if (object.ok) return object;
      }
      return { ok: true, input: inner, repaired: decoded.repaired, habits: ['quoted_input'] };
    }
  }
  // `"{"k": 1}"`, `'{…}'`, `` `{…}` ``: a JSON object in quotes that do not make a JSON string.
  const inner = unquote(text) ?? (/^"\s*\{[\s\S]*\}\s*"$/.test(text) ? text.slice(1, -1).trim() : undefined);
  if (inner !== undefined) {
    const object = inner.startsWith('{') ? readObject(inner) : undefined;
    if (object?.ok && typeof object.input !== 'string') return withInputHabits(object, QUOTED);
    return { ok: true, input: inner, repaired: false, habits: ['quoted_input'] };
  }
  // No spread: this is the hot path, and a literal keeps one object shape.
  return { ok: true, input: text, repaired: false };
}

/** The text left after dropping commentary, read again for quotes (`"Paris" (the city)`). */
function commentaryInput(text: string): CoercedInput {
  const read = coerceInput(text);
  if (!read.ok) return read;
  return { ...read, habits: ['trailing_commentary', ...(read.habits ?? [])] };
}

/** Turns a JSON value already parsed (e.g. `action_input`) into an action input. */
export function coerceValue(value: unknown): CoercedInput {
  if (isRecord(value)) return { ok: true, input: value, repaired: false };
  if (typeof value === 'string') return coerceInput(value);
  if (value === undefined || value === null) return { ok: true, input: {}, repaired: false };
  if (Array.isArray(value)) return { ok: true, input: value, repaired: false, habits: ['structured_input'] };
  return { ok: true, input: JSON.stringify(value), repaired: false };
}

function withInputHabits(input: CoercedInput, habits: ReplyHabit[]): CoercedInput {
  if (!input.ok || habits.length === 0) return input;
  return { ...input, habits: [...habits, ...(input.habits ?? [])] };
}

function readObject(text: string): CoercedInput {
  const span = extractJson(text);
  if (!span) return { ok: true, input: text, repaired: false };
  if (span.cutInString) {
    return {
      ok: false,
      reason:
        'The action input JSON was cut off in the middle of a string, so the arguments are incomplete. Send the whole JSON object again, shorter if needed.',
    };
  }
  const parsed = parseJsonLenient(span.json);
  if (parsed.ok && isRecord(parsed.value)) {
    const controls = parsed.repaired && hasRawControlInString(span.json);
    return {
      ok: true,
      input: parsed.value,
      repaired: parsed.repaired || span.truncated,
      ...(controls ? { habits: ['structured_input'] as ReplyHabit[] } : {}),
    };
  }
  return { ok: true, input: text, repaired: false };
}

/** A whole-text JSON array (`["a", "b"]`, `['a']`, `[{"k": 1}]`) stays an array; `[1, 2] * 3` is text. */
function readArray(text: string): CoercedInput | undefined {
  if (!text.endsWith(']')) return undefined;
  const parsed = parseJsonLenient(text);
  if (!parsed.ok || !Array.isArray(parsed.value)) return undefined;
  return { ok: true, input: parsed.value, repaired: parsed.repaired, habits: ['structured_input'] };
}

// The rules for the text around a plain-text input, kept together because the docs state them
// (docs/protocols.md, "Commentary after the input").

/** Words that make a line prose rather than code or a value. */
const PROSE_WORDS = /[\p{L}]{2,}/gu;
const CODE_CHARS = /[=;{}<>|&$]|^\s*(?:import|from|def|const|let|var|SELECT|UPDATE|INSERT|DELETE|WITH)\b/;

/**
 * Drops commentary after a plain-text input, by two rules:
 * 1. A single-line input followed by a blank line and a paragraph of prose is the first line
 *    (unless that line ends in `,` or `:`, which announces its continuation, as in a letter).
 * 2. A parenthetical ending a single-line input, after a space, is commentary when it reads as prose:
 *    at least three words and no operator or digit-only content (`2 * (3 + 4)`, `Jaguar (animal)` stay).
 * Returns the text unchanged otherwise.
 */
function dropCommentary(text: string): string {
  const last = text.charCodeAt(text.length - 1);
  // Cheap exit for the common case: one line that does not end in a parenthesis.
  if (last !== 41 /* ) */ && last !== 0xff09 /* ） */ && last !== 46 && last !== 0x3002 && !text.includes('\n\n')) {
    return text;
  }
  const paragraph = /^([^\n]+)\n[ \t]*\n([\s\S]+)$/.exec(text);
  if (paragraph) {
    const [, first, rest] = paragraph;
    if (!/[,:，：]\s*$/.test(first) && isProse(rest.split('\n', 1)[0])) return dropParenthetical(first.trim());
    return text;
  }
  return text.includes('\n') ? text : dropParenthetical(text);
}

function dropParenthetical(line: string): string {
  const match = /^(.*\S)\s+[(（]([^()（）]+)[)）][.。]?$/u.exec(line);
  if (!match) return line;
  const inner = match[2];
  if (/[=+*/<>^%]/.test(inner) || (inner.match(PROSE_WORDS) ?? []).length < 3) return line;
  return match[1];
}

/** A line that reads as a sentence: starts with a capital, a CJK character or `(`, has words, is not code. */
function isProse(line: string): boolean {
  const text = line.trim();
  if (!/^[\p{Lu}\p{Lo}(（*_]/u.test(text) || CODE_CHARS.test(text)) return false;
  if (/\p{Script=Han}/u.test(text)) return text.length >= 4;
  return (text.match(PROSE_WORDS) ?? []).length >= 3;
}

const QUOTE_START = "`“‘'「";

/**
 * The text inside matching backticks (one to three), typographic quotes or single quotes around the
 * whole input; undefined when it is not quoted. Double quotes are JSON strings, decoded elsewhere.
 */
function unquote(text: string): string | undefined {
  if (!QUOTE_START.includes(text[0])) return undefined;
  const match = /^(?:(`{1,3})([^`]+)\1|“([^”]*)”|‘([^’]*)’|'([^']*)'|「([^」]*)」)$/u.exec(text);
  if (!match) return undefined;
  const inner = (match[2] ?? match[3] ?? match[4] ?? match[5] ?? match[6] ?? '').trim();
  return inner === '' ? undefined : inner;
}
