/**
 * The text a model sees for a tool's return value: strings as they are, objects as compact JSON
 * (bigints as strings, cycles marked), `undefined` as `(no output)`.
 */
export function serializeOutput(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '(no output)';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return JSON.stringify(value, safeReplacer()) ?? String(value);
  }
}

function safeReplacer(): (key: string, value: unknown) => unknown {
  const seen = new WeakSet<object>();
  return (_key, value) => {
    if (typeof value === 'bigint') return value.toString();
    if (typeof value === 'object' && value !== null) {
      if (seen.has(value)) return '[Circular]';
      seen.add(value);
    }
    return value;
  };
}
