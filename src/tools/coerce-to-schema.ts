import type { JsonSchema } from '../core/index.js';

const NUMERIC = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/;

/**
 * A model's argument value brought to what the schema asks, where the meaning is plain: `"10"` for
 * an integer, `"2.5"` for a number, `"true"` for a boolean, `10` for a string, a JSON text for an
 * array or object, an enum option in another case or spacing (`"seafood"` for `"Seafood"`); nested
 * arrays and objects alike. Anything else is left for validation to report.
 * Never throws; never mutates its input.
 *
 * @example
 * coerceToSchema({ n: '10' }, { type: 'object', properties: { n: { type: 'integer' } } }); // { n: 10 }
 */
export function coerceToSchema(value: unknown, schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 32) return value;
  if (typeof value === 'string' && Array.isArray(schema.enum) && !schema.enum.includes(value)) {
    // `"seafood"` for the option `"Seafood"`, `"gluten free"` for `"gluten_free"`: the one option it spells.
    const key = enumKey(value);
    const options = schema.enum.filter((option) => typeof option === 'string' && enumKey(option) === key);
    if (options.length === 1) return options[0];
  }
  const type = schema.type;
  switch (type) {
    case 'integer':
    case 'number': {
      if (typeof value !== 'string' || !NUMERIC.test(value)) return value;
      const n = Number(value);
      return Number.isFinite(n) && (type === 'number' || Number.isInteger(n)) ? n : value;
    }
    case 'boolean': {
      if (typeof value !== 'string') return value;
      const word = value.trim().toLowerCase();
      return word === 'true' ? true : word === 'false' ? false : value;
    }
    case 'string':
      return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
    case 'array': {
      const list = typeof value === 'string' ? parsed(value, '[') : value;
      if (!Array.isArray(list)) return value;
      const items = schema.items;
      if (typeof items !== 'object' || items === null || Array.isArray(items)) return list;
      const next = list.map((item) => coerceToSchema(item, items as JsonSchema, depth + 1));
      return next.some((item, i) => item !== list[i]) ? next : list;
    }
    case 'object': {
      const object = typeof value === 'string' ? parsed(value, '{') : value;
      if (typeof object !== 'object' || object === null || Array.isArray(object)) return value;
      const properties = schema.properties;
      if (typeof properties !== 'object' || properties === null) return object;
      let out = object as Record<string, unknown>;
      for (const [key, sub] of Object.entries(properties as Record<string, JsonSchema>)) {
        if (!(key in out)) continue;
        const next = coerceToSchema(out[key], sub, depth + 1);
        if (next !== out[key]) {
          if (out === object) out = { ...out };
          out[key] = next;
        }
      }
      return out;
    }
    default:
      return value;
  }
}

function enumKey(text: string): string {
  return text.toLowerCase().replace(/[\s_-]+/g, '');
}

function parsed(text: string, open: string): unknown {
  const t = text.trim();
  if (!t.startsWith(open)) return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}
