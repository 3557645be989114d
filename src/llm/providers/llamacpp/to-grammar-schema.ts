import type { JsonSchema } from '../../../core/index.js';

/** The JSON Schema subset node-llama-cpp turns into a grammar. */
export type GrammarSchema = Record<string, unknown>;

const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null']);
const FORMATS = new Set(['date-time', 'time', 'date']);
/** What an unconstrained value (`{}`, `$ref`, unknown keywords) becomes: any scalar, or any object. */
const ANY: GrammarSchema = {
  oneOf: [{ type: ['string', 'number', 'boolean', 'null'] }, { type: 'object', additionalProperties: true }],
};

/**
 * Narrows a tool's JSON Schema to the subset node-llama-cpp's grammar supports (type, properties,
 * required, items, enum, const, oneOf/anyOf, string lengths and formats; small integer ranges become
 * enums). Other numeric bounds and patterns are not enforced by the grammar: the tool's own validation
 * still checks them and the model reads the issue as an observation. What it cannot express
 * is widened, never dropped silently into "nothing allowed": the tool still validates the input.
 */
export function toGrammarSchema(schema: JsonSchema | boolean | undefined): GrammarSchema {
  if (schema === undefined || typeof schema === 'boolean') return ANY;
  if ('const' in schema) return { const: schema.const };
  if (Array.isArray(schema.enum)) return { enum: schema.enum };
  const alternatives = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(alternatives)) return { oneOf: alternatives.map(toGrammarSchema) };
  const type = schema.type;
  if (Array.isArray(type)) {
    if (type.every((t) => SCALARS.has(String(t)))) return { type };
    return { oneOf: type.map((t) => toGrammarSchema({ ...schema, type: t })) };
  }
  switch (type) {
    case 'object':
      return objectSchema(schema);
    case 'array': {
      const out: GrammarSchema = { type: 'array', items: toGrammarSchema(schema.items as JsonSchema | undefined) };
      if (typeof schema.minItems === 'number') out.minItems = schema.minItems;
      if (typeof schema.maxItems === 'number') out.maxItems = schema.maxItems;
      return out;
    }
    case 'string': {
      if (typeof schema.format === 'string' && FORMATS.has(schema.format)) return { type, format: schema.format };
      const out: GrammarSchema = { type };
      if (typeof schema.minLength === 'number') out.minLength = schema.minLength;
      if (typeof schema.maxLength === 'number') out.maxLength = schema.maxLength;
      return out;
    }
    case 'integer':
      return integerSchema(schema);
    case 'number':
    case 'boolean':
    case 'null':
      return { type };
    default:
      return schema.properties ? objectSchema(schema) : ANY;
  }
}

/** A small bounded integer range becomes an enum, so `minimum`/`maximum` hold under the grammar too. */
function integerSchema(schema: JsonSchema): GrammarSchema {
  const { minimum: min, maximum: max } = schema;
  if (typeof min === 'number' && typeof max === 'number' && max - min <= 256 && max >= min) {
    const from = Math.ceil(min);
    return { enum: Array.from({ length: Math.floor(max) - from + 1 }, (_, i) => from + i) };
  }
  return { type: 'integer' };
}

function objectSchema(schema: JsonSchema): GrammarSchema {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const names = Object.keys(properties);
  if (names.length === 0) return { type: 'object', additionalProperties: schema.additionalProperties !== false };
  const required = Array.isArray(schema.required) ? schema.required.filter((n) => names.includes(String(n))) : [];
  return {
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, toGrammarSchema(properties[name])])),
    required,
    additionalProperties: false,
  };
}
