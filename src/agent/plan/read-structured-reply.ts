import type { z } from 'zod';
import { parseJsonLenient } from '../../core/index.js';

/** A reply read against a schema: the value, or exactly what was wrong (to tell the model). */
export type StructuredReply<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * Reads a JSON reply tolerantly (a ``` fence, prose around it, small syntax slips repaired by
 * jsonrepair) and validates it with `schema`. `wrap` may reshape the value first (a bare array
 * for a plan). Never throws.
 */
export function readStructuredReply<T>(
  text: string,
  schema: z.ZodType<T>,
  wrap: (value: unknown) => unknown = (value) => value,
): StructuredReply<T> {
  const json = jsonText(text);
  if (json === undefined) return { ok: false, reason: 'The reply holds no JSON object.' };
  const read = parseJsonLenient(json);
  if (!read.ok) return { ok: false, reason: `The reply is not valid JSON (${read.error}).` };
  const result = schema.safeParse(wrap(read.value));
  if (result.success) return { ok: true, value: result.data };
  const problems = result.error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
  return { ok: false, reason: `The JSON does not match the required shape: ${problems}.` };
}

/** The JSON part of a reply: a fenced block's body when there is one, else first opener to last closer. */
function jsonText(text: string): string | undefined {
  const fenced = /```[ \t]*(?:json\w*)?[^\n]*\n([\s\S]*?)(?:```|$)/i.exec(text)?.[1];
  const body = fenced && /[[{]/.test(fenced) ? fenced : text;
  // A `[` counts only when it opens a JSON array (not "[see above]" in prose).
  const start = body.search(/\{|\[\s*["{[\]]/);
  if (start < 0) return undefined;
  const closer = body[start] === '{' ? '}' : ']';
  const end = body.lastIndexOf(closer);
  // No closer: a cut-off reply, which jsonrepair may still complete.
  return end > start ? body.slice(start, end + 1) : body.slice(start);
}
