import { type ActionInput, parseJsonLenient, type ReplyHabit } from '../../core/index.js';
import { extractJson, hasRawControlInString, isRecord } from './json.js';

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
      if (text.startsWith('{')) return withHabits(readObject(text), COMMENTARY);
      return commentaryInput(text);
    }
  }
  if (/^"[\s\S]*"$/.test(text)) {
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
    if (object?.ok && typeof object.input !== 'string') return withHabits(object, QUOTED);
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

function withHabits(input: CoercedInput, habits: ReplyHabit[]): CoercedInput {
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
// (docs/parsing.md, "Commentary after the input").

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
export function dropCommentary(text: string): string {
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
export function unquote(text: string): string | undefined {
  if (!QUOTE_START.includes(text[0])) return undefined;
  const match = /^(?:(`{1,3})([^`]+)\1|“([^”]*)”|‘([^’]*)’|'([^']*)'|「([^」]*)」)$/u.exec(text);
  if (!match) return undefined;
  const inner = (match[2] ?? match[3] ?? match[4] ?? match[5] ?? match[6] ?? '').trim();
  return inner === '' ? undefined : inner;
}
