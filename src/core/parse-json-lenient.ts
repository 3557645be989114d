import { jsonrepair } from 'jsonrepair';
import { parseJsonObject } from './parse-json-object.js';

/** The result of reading JSON leniently. */
export type LenientJson = { ok: true; value: unknown; repaired: boolean } | { ok: false; error: string };

/** How far to go past strict JSON. */
export interface LenientJsonOptions {
  /**
   * Repair text that strict parsing rejects (default true). A caller turns it off for text that does
   * not look like JSON, which jsonrepair would otherwise turn into some value.
   */
  repair?: boolean;
}

/**
 * The one lenient JSON reader: strict `JSON.parse` first (the fast path, `parseJsonObject`), and when that fails,
 * jsonrepair (single quotes, trailing commas, comments, unquoted keys, Python literals, missing
 * closing brackets), marked `repaired`. Never throws: a failure is `{ ok: false, error }`.
 *
 * @example
 * parseJsonLenient('{"city": "Paris"}'); // { ok: true, value: { city: 'Paris' }, repaired: false }
 * parseJsonLenient("{city: 'Paris',}"); // { ok: true, value: { city: 'Paris' }, repaired: true }
 */
export function parseJsonLenient(text: string, options?: LenientJsonOptions): LenientJson {
  try {
    return { ok: true, value: parseJsonObject(text), repaired: false };
  } catch (error) {
    if (options?.repair === false) return { ok: false, error: messageOf(error) };
  }
  try {
    return { ok: true, value: JSON.parse(jsonrepair(escapeControls(text))), repaired: true };
  } catch (error) {
    return { ok: false, error: messageOf(error) };
  }
}

/** Control characters jsonrepair leaves as they are (it escapes newlines, tabs and returns itself). */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

/** `text` with each control character written as its `\u` escape, which a JSON string may hold. */
function escapeControls(text: string): string {
  CONTROLS.lastIndex = 0;
  if (!CONTROLS.test(text)) return text;
  return text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
