/**
 * Whether `value` as JSON is at most `limit` characters, decided without serializing it: an upper
 * bound on its length is added up (every string character may need a six-character escape; a number
 * takes at most 24) and the walk stops once the bound passes the limit. "No" means "serialize and
 * look", so the bound only has to be safe, not tight. Values with `toJSON` (dates) and cyclic values
 * never fit.
 *
 * @example
 * fitsWithin({ city: 'Paris' }, 4000); // true
 */
export function fitsWithin(value: unknown, limit: number): boolean {
  return left(value, limit) >= 0;
}

/** The budget left after `value`; negative once it is spent. */
function left(value: unknown, budget: number): number {
  if (budget < 0) return budget;
  switch (typeof value) {
    case 'string':
      return budget - (value.length * 6 + 2);
    case 'number':
      return budget - 24;
    case 'boolean':
      return budget - 5;
    case 'object':
      break;
    default:
      // undefined, functions, symbols (null in arrays, left out of objects) and bigints (never fit).
      return typeof value === 'bigint' ? -1 : budget - 4;
  }
  if (value === null) return budget - 4;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return -1;
  let rest = budget - 2;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && rest >= 0; i++) rest = left(value[i], rest - 1);
    return rest;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    rest = left(record[key], rest - (key.length * 6 + 4));
    if (rest < 0) return rest;
  }
  return rest;
}
