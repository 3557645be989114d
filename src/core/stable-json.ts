/**
 * JSON with object keys sorted at every depth, so equal values always give equal text: the basis
 * of cache keys and of replay matching tool inputs. Plain JSON values come out as `JSON.stringify`
 * writes them, keys sorted; the other values are handled on purpose:
 *
 * - `toJSON` is honoured (a `Date` is its ISO string), as `JSON.stringify` does.
 * - `undefined`, functions and symbols: a field holding one is dropped, an array item is `null`,
 *   a top-level one is `null`. `NaN` and `±Infinity` are `null`, `-0` is `0` (JSON's own rules).
 * - A `BigInt` is `{"$bigint":"123"}`, so it never equals the number or the string.
 * - A `Map` is `{"$map":[[key, value], …]}` and a `Set` `{"$set":[…]}`, entries sorted by their
 *   text, so two with the same entries match whatever their insertion order (`JSON.stringify`
 *   would write `{}` for every one of them and make all of them match).
 * - A circular value throws a `TypeError` naming the path that loops back; a value merely used
 *   twice is fine.
 *
 * (safe-stable-stringify was the library candidate; it writes Maps and Sets as `{}` and a BigInt as
 * a bare number, which would make different inputs match.)
 */
export function stableJson(value: unknown): string {
  return JSON.stringify(normalize(value, '', { objects: [], path: ['$'] })) ?? 'null';
}

/** The objects being normalized, outermost first, and the path to the current value (built only for the error). */
interface Walk {
  objects: object[];
  path: string[];
}

/**
 * The value as plain JSON data with sorted keys, for one native `JSON.stringify` (which then applies
 * JSON's own rules to `undefined`, functions, symbols, holes and non-finite numbers). `key` is its
 * key in the parent, passed to `toJSON` as `JSON.stringify` does.
 */
function normalize(value: unknown, key: string, walk: Walk): unknown {
  let current = value;
  if (
    current !== null &&
    typeof current === 'object' &&
    typeof (current as { toJSON?: unknown }).toJSON === 'function'
  ) {
    current = (current as { toJSON(key: string): unknown }).toJSON(key);
  }
  if (typeof current === 'bigint') return { $bigint: current.toString() };
  if (current === null || typeof current !== 'object') return current;
  // Boxed primitives (`new String('x')`) are written as their value, as JSON.stringify does.
  if (current instanceof String || current instanceof Number || current instanceof Boolean) return current.valueOf();
  const loop = walk.objects.indexOf(current);
  if (loop >= 0) {
    const at = (depth: number) => walk.path.slice(0, depth + 1).join('');
    throw new TypeError(`stableJson: the value is circular: ${at(walk.path.length - 1)} refers back to ${at(loop)}.`);
  }
  walk.objects.push(current);
  try {
    return normalizeObject(current, walk);
  } finally {
    walk.objects.pop();
  }
}

/** Normalizes `item` one level down, at path segment `segment`. */
function inner(item: unknown, key: string, segment: string, walk: Walk): unknown {
  walk.path.push(segment);
  try {
    return normalize(item, key, walk);
  } finally {
    walk.path.pop();
  }
}

function normalizeObject(object: object, walk: Walk): unknown {
  // Array.from, not map: a hole in a sparse array is visited too (and written as `null`).
  if (Array.isArray(object)) return Array.from(object, (item, i) => inner(item, String(i), `[${i}]`, walk));
  if (object instanceof Map) {
    const entries = [...object].map(([key, item], i) => [
      inner(key, '', `<entry ${i}>`, walk),
      inner(item, '', `<entry ${i}>`, walk),
    ]);
    return { $map: sortedByText(entries) };
  }
  if (object instanceof Set) {
    return { $set: sortedByText([...object].map((item, i) => inner(item, '', `<item ${i}>`, walk))) };
  }
  const record = object as Record<string, unknown>;
  // No prototype: a `__proto__` key is a key like any other.
  const out: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(record).sort()) {
    const value = inner(record[key], key, `.${key}`, walk);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** Entries in the order of their JSON text, so insertion order does not matter. */
function sortedByText(items: unknown[]): unknown[] {
  return items
    .map((item) => ({ item, text: JSON.stringify(item) ?? 'null' }))
    .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
    .map(({ item }) => item);
}
