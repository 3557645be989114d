import type { JsonSchema } from '../core/index.js';

// Type names function docs write in place of JSON Schema's: Python's (`dict`, `float`, `tuple`),
// OpenAPI's upper case as Gemini documents it (`STRING`, `OBJECT`), and other languages' (`double`, `map`).
const TYPE_NAMES: Record<string, string | null> = {
  object: 'object',
  dict: 'object',
  map: 'object',
  hashmap: 'object',
  record: 'object',
  array: 'array',
  list: 'array',
  tuple: 'array',
  set: 'array',
  string: 'string',
  str: 'string',
  text: 'string',
  char: 'string',
  number: 'number',
  float: 'number',
  double: 'number',
  decimal: 'number',
  integer: 'integer',
  int: 'integer',
  long: 'integer',
  boolean: 'boolean',
  bool: 'boolean',
  null: 'null',
  none: 'null',
  any: null,
};

const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'] as const;
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SUBSCHEMAS = ['items', 'additionalProperties', 'not', 'contains'] as const;

export interface NormalizeOptions {
  /**
   * False drops `default` keywords: JSON Schema's defaults are annotations, and a validator that
   * applied them would hand the tool values the model never wrote.
   */
  defaults?: false;
}

/**
 * A schema as JSON Schema, when function docs wrote types in another dialect: `dict`, `float`,
 * `tuple`, `any`, `STRING`. Returns the same object when nothing needed changing. Unknown type
 * names are left for the validator to report.
 *
 * @example
 * normalizeJsonSchema({ type: 'dict', properties: { n: { type: 'float' } } });
 * // → { type: 'object', properties: { n: { type: 'number' } } }
 */
export function normalizeJsonSchema(schema: JsonSchema, options: NormalizeOptions = {}, depth = 0): JsonSchema {
  if (depth > 32 || typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  let out: Record<string, unknown> = schema;
  const set = (key: string, value: unknown) => {
    if (out === schema) out = { ...schema };
    if (value === undefined) delete out[key];
    else out[key] = value;
  };
  if (options.defaults === false && 'default' in schema) set('default', undefined);
  const type = schema.type;
  if (typeof type === 'string') {
    const known = TYPE_NAMES[type.toLowerCase()];
    if (known === null) set('type', undefined);
    else if (known !== undefined && known !== type) set('type', known);
  } else if (Array.isArray(type)) {
    const mapped = type.map((t) => (typeof t === 'string' ? (TYPE_NAMES[t.toLowerCase()] ?? t) : t));
    if (mapped.some((t, i) => t !== type[i])) set('type', mapped.includes(null) ? undefined : mapped);
  }
  for (const key of SUBSCHEMA_MAPS) {
    const map = schema[key];
    if (typeof map !== 'object' || map === null || Array.isArray(map)) continue;
    let changed = false;
    const next: Record<string, unknown> = {};
    for (const [name, sub] of Object.entries(map)) {
      next[name] = normalizeJsonSchema(sub as JsonSchema, options, depth + 1);
      changed ||= next[name] !== sub;
    }
    if (changed) set(key, next);
  }
  for (const key of SUBSCHEMA_LISTS) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    const next = list.map((sub) => normalizeJsonSchema(sub as JsonSchema, options, depth + 1));
    if (next.some((sub, i) => sub !== list[i])) set(key, next);
  }
  for (const key of SUBSCHEMAS) {
    const sub = schema[key];
    if (typeof sub !== 'object' || sub === null) continue;
    const next = normalizeJsonSchema(sub as JsonSchema, options, depth + 1);
    if (next !== sub) set(key, next);
  }
  return out as JsonSchema;
}
