import type { JsonSchema } from '../core/index.js';

/**
 * A plausible value for a JSON Schema, used to show the model one valid call when its arguments
 * were wrong. Prefers `examples`, `default`, `const` and `enum` from the schema; objects get
 * their required fields only.
 */
export function synthesizeExample(schema: JsonSchema, depth = 0): unknown {
  if (depth > 6) return null;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const variants = (schema.anyOf ?? schema.oneOf ?? schema.allOf) as JsonSchema[] | undefined;
  if (Array.isArray(variants) && variants.length > 0) {
    const first = variants.find((v) => v.type !== 'null') ?? variants[0];
    return synthesizeExample(first, depth + 1);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return exampleObject(schema, depth);
    case 'array': {
      const items = schema.items as JsonSchema | undefined;
      const count = typeof schema.minItems === 'number' ? Math.min(schema.minItems, 3) : 1;
      return Array.from({ length: Math.max(1, count) }, () => (items ? synthesizeExample(items, depth + 1) : 'item'));
    }
    case 'integer':
    case 'number':
      return exampleNumber(schema, type === 'integer');
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string':
      return exampleString(schema);
    default:
      return schema.properties ? exampleObject(schema, depth) : 'value';
  }
}

function exampleObject(schema: JsonSchema, depth: number): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const out: Record<string, unknown> = {};
  for (const key of required) out[key] = synthesizeExample(properties[key] ?? {}, depth + 1);
  return out;
}

function exampleNumber(schema: JsonSchema, integer: boolean): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const exclusiveMin = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  let value = min ?? (exclusiveMin !== undefined ? exclusiveMin + 1 : 1);
  if (max !== undefined && value > max) value = max;
  return integer ? Math.ceil(value) : value;
}

const FORMATS: Record<string, string> = {
  email: 'user@example.com',
  uri: 'https://example.com',
  url: 'https://example.com',
  date: '2024-01-31',
  'date-time': '2024-01-31T12:00:00Z',
  time: '12:00:00',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
};

function exampleString(schema: JsonSchema): string {
  const byFormat = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  if (byFormat) return byFormat;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  return 'text'.padEnd(min, 'x');
}
