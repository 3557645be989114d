import type { ActionInput, ReplyHabit } from '../../core/index.js';
import { extractJson } from './extract-json.js';
import { isRecord, parseJsonLenient } from './repair-json.js';
import { dropCommentary, unquote } from './trim-input-text.js';

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
