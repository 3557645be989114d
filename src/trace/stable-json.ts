/**
 * JSON with object keys sorted at every depth, so equal values always give equal text
 * (the basis of cache keys and replay comparisons). `undefined` fields are dropped, as JSON.stringify does.
 */
export function stableJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const inner = (value as Record<string, unknown>)[key];
    if (inner !== undefined) out[key] = sortKeys(inner);
  }
  return out;
}
