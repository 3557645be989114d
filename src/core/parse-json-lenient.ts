import { jsonrepair } from 'jsonrepair';

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
 * The one lenient JSON reader: strict `JSON.parse` first (the fast path), and when that fails,
 * jsonrepair (single quotes, trailing commas, comments, unquoted keys, Python literals, missing
 * closing brackets), marked `repaired`. Never throws: a failure is `{ ok: false, error }`.
 *
 * @example
 * parseJsonLenient('{"city": "Paris"}'); // { ok: true, value: { city: 'Paris' }, repaired: false }
 * parseJsonLenient("{city: 'Paris',}"); // { ok: true, value: { city: 'Paris' }, repaired: true }
 */
export function parseJsonLenient(text: string, options?: LenientJsonOptions): LenientJson {
  try {
    return { ok: true, value: JSON.parse(text), repaired: false };
  } catch (error) {
    if (options?.repair === false) return { ok: false, error: messageOf(error) };
  }
  try {
    return { ok: true, value: JSON.parse(jsonrepair(text)), repaired: true };
  } catch (error) {
    return { ok: false, error: messageOf(error) };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
