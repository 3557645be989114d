import { stableJson } from '../../core/index.js';
import { callsOf, createScorer, type Scorer } from './scorer.js';

/** One expected tool call: a name, or a name and the arguments it must have (only those given are compared). */
export type ExpectedStep = string | { name: string; arguments?: Record<string, unknown> };

/**
 * How the calls made are held against the expected ones:
 * - `exact`: the same calls in the same order, nothing more;
 * - `in-order`: the expected calls appear in this order, other calls may come between;
 * - `any-order`: every expected call is made, in any order, other calls allowed;
 * - `subset`: every call made is among the expected ones (not all of them need be made).
 */
export type TrajectoryMode = 'exact' | 'in-order' | 'any-order' | 'subset';

interface Call {
  name: string;
  arguments: unknown;
}

function matches(call: Call, step: ExpectedStep): boolean {
  if (typeof step === 'string') return call.name === step;
  if (call.name !== step.name) return false;
  if (!step.arguments) return true;
  const args = (call.arguments ?? {}) as Record<string, unknown>;
  return Object.entries(step.arguments).every(([key, value]) => stableJson(args[key]) === stableJson(value));
}

const label = (step: ExpectedStep) =>
  typeof step === 'string' ? step : `${step.name}(${step.arguments ? stableJson(step.arguments) : ''})`;

/** Pairs each expected step with a distinct call (first fit), returning the steps left unmatched. */
function pairAnyOrder(calls: readonly Call[], expected: readonly ExpectedStep[]) {
  const used = new Set<number>();
  const missing: ExpectedStep[] = [];
  for (const step of expected) {
    const i = calls.findIndex((call, index) => !used.has(index) && matches(call, step));
    if (i < 0) missing.push(step);
    else used.add(i);
  }
  return missing;
}

function score(calls: readonly Call[], expected: readonly ExpectedStep[], mode: TrajectoryMode) {
  const names = calls.map((c) => c.name).join(' → ') || 'no calls';
  if (mode === 'exact') {
    const right = expected.filter((step, i) => calls[i] && matches(calls[i], step)).length;
    const pass = right === expected.length && calls.length === expected.length;
    const denominator = Math.max(expected.length, calls.length);
    return { score: denominator ? right / denominator : 1, pass, reason: pass ? undefined : `made ${names}` };
  }
  if (mode === 'in-order') {
    let next = 0;
    for (const call of calls) if (next < expected.length && matches(call, expected[next])) next++;
    const pass = next === expected.length;
    const reason = pass ? undefined : `missing ${label(expected[next])} in order; made ${names}`;
    return { score: expected.length ? next / expected.length : 1, pass, reason };
  }

  if (mode === 'any-order') {
    const missing = pairAnyOrder(calls, expected);
    const found = expected.length - missing.length;
    const reason = missing.length ? `missing ${missing.map(label).join(', ')}; made ${names}` : undefined;
    return { score: expected.length ? found / expected.length : 1, pass: !missing.length, reason };
  }
  const outside = calls.filter((call) => !expected.some((step) => matches(call, step)));
  const reason = outside.length ? `not expected: ${outside.map((c) => c.name).join(', ')}` : undefined;
  return { score: calls.length ? (calls.length - outside.length) / calls.length : 1, pass: !outside.length, reason };
}

/**
 * Scores the sequence of tool calls a run made against the expected one (names, and arguments where given).
 * The score is the share matched; it passes only when the mode's rule holds in full.
 *
 * @example
 * trajectory(['search', { name: 'fetch', arguments: { url: 'https://example.com' } }, 'summarize'], { mode: 'in-order' })
 */
export function trajectory(
  expected?: readonly ExpectedStep[],
  options: { mode?: TrajectoryMode; name?: string } = {},
): Scorer {
  const mode = options.mode ?? 'exact';
  return createScorer({
    name: options.name ?? `trajectory:${mode}`,
    score: ({ run, expected: caseExpected }) => {
      const want = expected ?? (caseExpected as { trajectory?: ExpectedStep[] } | undefined)?.trajectory;
      if (!Array.isArray(want))
        throw new Error("trajectory: no expected steps (pass them, or set the case's expected.trajectory)");
      return score(callsOf(run), want, mode);
    },
  });
}
