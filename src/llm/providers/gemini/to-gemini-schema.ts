import type { JsonSchema } from '../../../core/index.js';

/** Keys of Gemini's Schema object (an OpenAPI 3.0 subset); anything else is dropped. */
const KEPT = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'anyOf',
  'items',
  'propertyOrdering',
]);

/** The formats Gemini accepts, per type. */
const FORMATS: Record<string, Set<string>> = {
  string: new Set(['enum', 'date-time']),
  integer: new Set(['int32', 'int64']),
  number: new Set(['float', 'double']),
};

/**
 * Converts a JSON Schema (as zod generates it) to Gemini's Schema subset: `const` becomes a
 * one-value `enum`, `type: [T, 'null']` and `anyOf` with a null branch become `nullable`, enums
 * are strings, and keys Gemini rejects (`additionalProperties`, `$schema`, `default`, ...) are left out.
 */
export function toGeminiSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  let source: JsonSchema = schema;
  if (Array.isArray(source.anyOf)) {
    const branches = (source.anyOf as JsonSchema[]).filter((b) => b.type !== 'null');
    if (branches.length < source.anyOf.length) out.nullable = true;
    if (branches.length === 1) {
      const { anyOf: _anyOf, ...rest } = source;
      source = { ...rest, ...branches[0] };
    } else source = { ...source, anyOf: branches };
  }
  if (source.const !== undefined) source = { ...source, enum: [source.const] };
  for (const [key, value] of Object.entries(source)) {
    if (!KEPT.has(key)) continue;
    if (key === 'type' && Array.isArray(value)) {
      const types = value.filter((t) => t !== 'null');
      if (types.length < value.length) out.nullable = true;
      out.type = types[0] ?? 'string';
    } else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([name, child]) => [name, toGeminiSchema(child)]),
      );
    } else if (key === 'items' && value && typeof value === 'object' && !Array.isArray(value)) {
      out.items = toGeminiSchema(value as JsonSchema);
    } else if (key === 'anyOf' && Array.isArray(value)) {
      out.anyOf = (value as JsonSchema[]).map(toGeminiSchema);
    } else if (key === 'enum' && Array.isArray(value)) {
      // Gemini enums are strings (a `format: 'enum'` string); other values are written as text.
      out.enum = value.filter((v) => v !== null).map(String);
    } else out[key] = value;
  }
  if (typeof out.format === 'string' && !FORMATS[String(out.type)]?.has(out.format)) delete out.format;
  if (out.enum) out.type = 'string';
  return out;
}
