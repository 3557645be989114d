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
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      try {
        return canonicalJson(JSON.parse(trimmed));
      } catch {
        return JSON.stringify(trimmed);
      }
    }
    return JSON.stringify(trimmed);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
