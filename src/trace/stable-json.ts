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
  return write(value, { path: '$', key: '', stack: [] }) ?? 'null';
}

interface Place {
  /** Where the value sits, for the cycle message (`$.a[2].b`). */
  path: string;
  /** Its key in the parent, passed to `toJSON` as `JSON.stringify` does. */
  key: string;
  /** The objects being written around it, outermost first, with their paths. */
  stack: { value: object; path: string }[];
}

/** The text of `value`, or `undefined` where `JSON.stringify` would leave it out. */
function write(value: unknown, place: Place): string | undefined {
  let current = value;
  if (
    current !== null &&
    typeof current === 'object' &&
    typeof (current as { toJSON?: unknown }).toJSON === 'function'
  ) {
    current = (current as { toJSON(key: string): unknown }).toJSON(place.key);
  }
  // Boxed primitives (`new String('x')`) are written as their value, as JSON.stringify does.
  if (current instanceof String || current instanceof Number || current instanceof Boolean) current = current.valueOf();
  switch (typeof current) {
    case 'string':
    case 'boolean':
      return JSON.stringify(current);
    case 'number':
      return Number.isFinite(current) ? JSON.stringify(current) : 'null';
    case 'bigint':
      return `{"$bigint":${JSON.stringify(current.toString())}}`;
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (current === null) return 'null';
  const object = current as object;
  const loop = place.stack.find((entry) => entry.value === object);
  if (loop) throw new TypeError(`stableJson: the value is circular: ${place.path} refers back to ${loop.path}.`);
  place.stack.push({ value: object, path: place.path });
  try {
    return writeObject(object, place);
  } finally {
    place.stack.pop();
  }
}

function writeObject(object: object, place: Place): string {
  const child = (key: string, path: string): Place => ({ key, path, stack: place.stack });
  if (Array.isArray(object)) {
    // Array.from, not map: a hole in a sparse array is `null` too.
    const items = Array.from(object, (item, i) => write(item, child(String(i), `${place.path}[${i}]`)) ?? 'null');
    return `[${items.join(',')}]`;
  }
  if (object instanceof Map) {
    const entries = [...object].map(([key, item], i) => {
      const at = `${place.path}<entry ${i}>`;
      return `[${write(key, child('', at)) ?? 'null'},${write(item, child('', at)) ?? 'null'}]`;
    });
    return `{"$map":[${entries.sort().join(',')}]}`;
  }
  if (object instanceof Set) {
    const items = [...object].map((item, i) => write(item, child('', `${place.path}<item ${i}>`)) ?? 'null');
    return `{"$set":[${items.sort().join(',')}]}`;
  }
  const record = object as Record<string, unknown>;
  const fields: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const text = write(record[key], child(key, `${place.path}.${key}`));
    if (text !== undefined) fields.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${fields.join(',')}}`;
}
