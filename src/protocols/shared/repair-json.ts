import { jsonrepair } from 'jsonrepair';

/** The result of reading JSON leniently. */
export type LenientJson = { ok: true; value: unknown; repaired: boolean } | { ok: false; error: string };

/**
 * Parses JSON, and when strict parsing fails, repairs it with jsonrepair (single quotes, trailing
 * commas, comments, unquoted keys, Python literals, missing closing brackets) and marks it `repaired`.
 * Never throws.
 */
export function parseJsonLenient(text: string): LenientJson {
  try {
    return { ok: true, value: JSON.parse(text), repaired: false };
  } catch {
    // fall through to repair
  }
  try {
    return { ok: true, value: JSON.parse(jsonrepair(text)), repaired: true };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** True for a plain object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
