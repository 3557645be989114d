import type { ActionInput } from '../../core/index.js';
import { extractJson } from './extract-json.js';
import { isRecord, parseJsonLenient } from './repair-json.js';

/** An action input read out of text, or the reason it could not be. */
export type CoercedInput = { ok: true; input: ActionInput; repaired: boolean } | { ok: false; reason: string };

const WHOLE_FENCE = /^```[\w-]*[^\n]*\n?([\s\S]*?)(?:\n?```)?$/;

/**
 * Reads an action input written as text: a JSON object (fenced or not, repaired when needed) becomes
 * an object; a JSON string literal is decoded (and read again when it encodes an object); anything
 * else is the trimmed string. A JSON object cut off inside a string cannot be trusted and is refused.
 */
export function coerceInput(raw: string): CoercedInput {
  let text = raw.trim();
  const fence = WHOLE_FENCE.exec(text);
  if (fence && text.startsWith('```')) text = fence[1].trim();
  if (text.startsWith('{')) return readObject(text);
  if (/^"[\s\S]*"$/.test(text)) {
    const decoded = parseJsonLenient(text);
    if (decoded.ok && typeof decoded.value === 'string') {
      const inner = decoded.value.trim();
      if (inner.startsWith('{')) {
        const object = readObject(inner);
        if (object.ok) return object;
      }
      return { ok: true, input: inner, repaired: decoded.repaired };
    }
  }
  if (/^'[^']*'$/.test(text)) return { ok: true, input: text.slice(1, -1).trim(), repaired: false };
  return { ok: true, input: text, repaired: false };
}

/** Turns a JSON value already parsed (e.g. `action_input`) into an action input. */
export function coerceValue(value: unknown): CoercedInput {
  if (isRecord(value)) return { ok: true, input: value, repaired: false };
  if (typeof value === 'string') return coerceInput(value);
  if (value === undefined || value === null) return { ok: true, input: {}, repaired: false };
  return { ok: true, input: JSON.stringify(value), repaired: false };
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
    return { ok: true, input: parsed.value, repaired: parsed.repaired || span.truncated };
  }
  return { ok: true, input: text, repaired: false };
}
