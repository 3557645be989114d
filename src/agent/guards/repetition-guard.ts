import type { StopReason } from './stop-reason.js';

/**
 * Tracks tool calls by name and canonical arguments. The second identical call gets a warning;
 * the third ends the run `loop_detected`.
 */
export interface RepetitionTracker {
  /** Records a call and says what to do about it. */
  check(tool: string, input: unknown): { warning?: string; stop?: StopReason };
}

export function createRepetitionTracker(): RepetitionTracker {
  const seen = new Map<string, number>();
  return {
    check(tool, input) {
      const key = `${tool.toLowerCase()}\u0000${canonicalJson(input)}`;
      const count = (seen.get(key) ?? 0) + 1;
      seen.set(key, count);
      if (count === 2) {
        return {
          warning: `You already called ${tool} with these exact arguments. Do not repeat it: use the earlier result, try different arguments, or give the final answer.`,
        };
      }
      if (count >= 3) {
        return {
          stop: {
            status: 'loop_detected',
            code: 'repeated_call',
            message: `The model called ${tool} with the same arguments ${count} times.`,
          },
        };
      }
      return {};
    },
  };
}

/** JSON with sorted keys and trimmed strings, so `{b:1,a:" x"}` and `{a:"x",b:1}` compare equal. */
export function canonicalJson(value: unknown): string {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    const first = trimmed.charCodeAt(0);
    if (first === 123 /* { */ || first === 91 /* [ */) {
      try {
        return JSON.stringify(canonical(JSON.parse(trimmed)));
      } catch {
        return JSON.stringify(trimmed);
      }
    }
    return JSON.stringify(trimmed);
  }
  return JSON.stringify(canonical(value)) ?? 'null';
}

/**
 * The value with object keys sorted and strings trimmed (arrays keep their order). A value that is
 * already canonical comes back as it is, so the common case allocates nothing.
 */
function canonical(value: unknown): unknown {
  if (typeof value === 'string') return value.trim();
  if (!value || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = canonical(value[i]);
      if (item !== value[i]) {
        copy ??= value.slice();
        copy[i] = item;
      }
    }
    return copy ?? value;
  }
  const source = value as Record<string, unknown>;
  const keys = Object.keys(source);
  let same = true;
  for (let i = 0; same && i < keys.length; i++) {
    const item = source[keys[i]];
    same = (i === 0 || keys[i - 1] < keys[i]) && item !== undefined && canonical(item) === item;
  }
  if (same) return source;
  const sorted: Record<string, unknown> = Object.create(null); // so a "__proto__" key stays a key
  for (const key of keys.sort()) if (source[key] !== undefined) sorted[key] = canonical(source[key]);
  return sorted;
}
