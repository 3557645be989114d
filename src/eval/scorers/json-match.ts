import { parseJsonLenient, stableJson } from '../../core/index.js';
import { createScorer, quote, type Scorer } from './scorer.js';

/** Anything with zod's `safeParse` (a zod schema, or your own validator of that shape). */
export interface SafeParser {
  safeParse(value: unknown): { success: boolean; error?: { issues?: { path: PropertyKey[]; message: string }[] } };
}

/** Options of `jsonMatch`. */
export interface JsonMatchOptions {
  /** The answer must parse as JSON and pass this schema (a failed schema scores 0). */
  schema?: SafeParser;
  /**
   * Field values the answer must hold, by dot path (`user.name`, `items.0.id`); the score is the share that
   * match (deep equality). Without it, the case's `expected` (an object) gives the fields: its top-level keys.
   */
  fields?: Record<string, unknown>;
  name?: string;
}

/**
 * Scores a JSON answer: it must parse (fenced ```json blocks and the first `{…}` or `[…]` are read too),
 * pass the schema when one is given, and hold the expected fields.
 *
 * @example
 * jsonMatch({ schema: z.object({ city: z.string() }), fields: { city: 'Paris' } })
 */
export function jsonMatch(options: JsonMatchOptions = {}): Scorer {
  return createScorer({
    name: options.name ?? 'jsonMatch',
    score: ({ output, expected }) => {
      const value = readJson(output);
      if (value === undefined) return { score: 0, reason: `the answer is not JSON: ${quote(output)}` };
      if (options.schema) {
        const parsed = options.schema.safeParse(value);
        if (!parsed.success) {
          const issues = parsed.error?.issues?.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`) ?? [];
          return { score: 0, reason: `schema: ${issues.join('; ') || 'invalid'}` };
        }
      }
      const fields = options.fields ?? (isRecord(expected) ? expected : undefined);
      if (!fields) return { score: 1 };
      const paths = Object.keys(fields);
      const wrong = paths.filter((path) => stableJson(at(value, path)) !== stableJson(fields[path]));
      const score = paths.length ? (paths.length - wrong.length) / paths.length : 1;
      const reason = wrong.length
        ? wrong.map((p) => `${p}: expected ${stableJson(fields[p])}, got ${stableJson(at(value, p)) ?? 'nothing'}`)
        : undefined;
      return { score, reason: reason?.join('; ') };
    },
  });
}

/** The JSON in an answer: the whole text, a fenced block, or the first object or array in it. */
export function readJson(text: string): unknown {
  const candidates = [text.trim()];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced) candidates.push(fenced[1].trim());
  const start = text.search(/[[{]/);
  if (start >= 0) candidates.push(text.slice(start, Math.max(text.lastIndexOf('}'), text.lastIndexOf(']')) + 1));
  for (const candidate of candidates) {
    if (!candidate) continue;
    const parsed = parseJsonLenient(candidate, { repair: false });
    if (parsed.ok && typeof parsed.value === 'object' && parsed.value !== null) return parsed.value;
  }
  return undefined;
}

function at(value: unknown, path: string): unknown {
  let here = value;
  for (const key of path.split('.')) {
    if (!isRecord(here) && !Array.isArray(here)) return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
