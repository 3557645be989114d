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

/** A copy with object keys sorted and strings trimmed (arrays keep their order). */
function canonical(value: unknown): unknown {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value)) return value.map(canonical);
  if (!value || typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(source).sort()) if (source[key] !== undefined) sorted[key] = canonical(source[key]);
  return sorted;
}
