import { lastNumber } from '../run-checks.js';
import { createScorer, quote, type Scorer } from './scorer.js';

/** Options shared by the text scorers. */
export interface TextOptions {
  ignoreCase?: boolean;
  /** The scorer's name in reports. */
  name?: string;
}

const fold = (text: string, ignoreCase?: boolean) => (ignoreCase ? text.toLowerCase() : text);

/** The value to compare with: the one given to the scorer, else the case's `expected`. */
function target<T>(given: T | undefined, expected: unknown, scorer: string): T {
  const value = given ?? (expected as T | undefined);
  if (value === undefined || value === null) {
    throw new Error(`${scorer}: no expected value (pass one to the scorer or set the case's "expected")`);
  }
  return value;
}

/**
 * 1 when the answer, trimmed, equals the expected text (the given one, else the case's `expected`).
 *
 * @example
 * exact('Paris', { ignoreCase: true })
 */
export function exact(expected?: string, options: TextOptions = {}): Scorer {
  return createScorer({
    name: options.name ?? 'exact',
    score: ({ output, expected: caseExpected }) => {
      const want = String(target(expected, caseExpected, 'exact'));
      const pass = fold(output.trim(), options.ignoreCase) === fold(want.trim(), options.ignoreCase);
      return { score: pass ? 1 : 0, reason: pass ? undefined : `expected ${quote(want)}, got ${quote(output)}` };
    },
  });
}

/** 1 when the answer contains the text (or every text of a list; the score is the share found). */
export function contains(expected?: string | readonly string[], options: TextOptions = {}): Scorer {
  return createScorer({
    name: options.name ?? 'contains',
    score: ({ output, expected: caseExpected }) => {
      const raw = target<string | readonly string[]>(expected, caseExpected, 'contains');
      if (typeof raw === 'string') {
        // One text (the common case), without the lists below.
        const found = fold(output, options.ignoreCase).includes(fold(raw, options.ignoreCase));
        return { score: found ? 1 : 0, reason: found ? undefined : `missing ${quote(raw)}` };
      }
      const wants = (Array.isArray(raw) ? raw : [raw]).map(String);
      const text = fold(output, options.ignoreCase);
      const missing = wants.filter((w) => !text.includes(fold(w, options.ignoreCase)));
      const score = wants.length ? (wants.length - missing.length) / wants.length : 1;
      return { score, reason: missing.length ? `missing ${missing.map(quote).join(', ')}` : undefined };
    },
  });
}

/** 1 when the answer matches the pattern (a RegExp, or a string with `flags`). */
export function regex(pattern: RegExp | string, options: { flags?: string; name?: string } = {}): Scorer {
  const re = typeof pattern === 'string' ? new RegExp(pattern, options.flags) : pattern;
  return createScorer({
    name: options.name ?? 'regex',
    score: ({ output }) => {
      re.lastIndex = 0;
      const pass = re.test(output);
      return { score: pass ? 1 : 0, reason: pass ? undefined : `${re} did not match ${quote(output)}` };
    },
  });
}

/** Options of `numeric`: an absolute tolerance, or one relative to the expected value. */
export interface NumericOptions {
  /** |got − expected| ≤ tolerance passes. Default 1e-9. */
  tolerance?: number;
  /** |got − expected| ≤ relative × |expected| passes (with `tolerance`, either passes). */
  relative?: number;
  name?: string;
}

/** 1 when the last number in the answer (`1,234.5` reads 1234.5) is within tolerance of the expected number. */
export function numeric(expected?: number, options: NumericOptions = {}): Scorer {
  const tolerance = options.tolerance ?? 1e-9;
  return createScorer({
    name: options.name ?? 'numeric',
    score: ({ output, expected: caseExpected }) => {
      const want = Number(target(expected, caseExpected, 'numeric'));
      if (!Number.isFinite(want))
        throw new Error(`numeric: the expected value ${String(caseExpected)} is not a number`);
      const got = lastNumber(output);
      if (got === undefined) return { score: 0, reason: `no number in ${quote(output)}` };
      const gap = Math.abs(got - want);
      const pass = gap <= tolerance || (options.relative !== undefined && gap <= options.relative * Math.abs(want));
      return { score: pass ? 1 : 0, reason: pass ? undefined : `got ${got}, expected ${want} ± ${tolerance}` };
    },
  });
}

/** 1 when the run ended `done` without an error (a bare-string answer counts as done). */
export function noError(options: { name?: string } = {}): Scorer {
  return createScorer({
    name: options.name ?? 'noError',
    score: ({ run }) => {
      if (!run || (run.status === 'done' && !run.error)) return { score: 1 };
      return { score: 0, reason: `run ended ${run.status}${run.error ? `: ${run.error.message}` : ''}` };
    },
  });
}

/** Limits for `budget`; each one set must hold. */
export interface BudgetLimits {
  maxSteps?: number;
  /** Prompt plus completion tokens. */
  maxTokens?: number;
  maxCostUsd?: number;
  maxLatencyMs?: number;
  name?: string;
}

/**
 * 1 when the run kept within every limit set; the score is the share of limits kept. A cost limit on a
 * run whose cost is unknown (no price for the model) fails with that reason rather than passing by default.
 */
export function budget(limits: BudgetLimits): Scorer {
  return createScorer({
    name: limits.name ?? 'budget',
    score: ({ run }) => {
      if (!run) throw new Error('budget needs the run (the task returned a bare string)');
      const over: string[] = [];
      let checked = 0;
      const check = (limit: number | undefined, value: number | undefined, what: string) => {
        if (limit === undefined) return;
        checked++;
        if (value === undefined) over.push(`${what} unknown`);
        else if (value > limit) over.push(`${what} ${round(value)} > ${limit}`);
      };
      check(limits.maxSteps, run.steps.length, 'steps');
      check(limits.maxTokens, run.usage.promptTokens + run.usage.completionTokens, 'tokens');
      check(limits.maxCostUsd, run.usage.costUsd, 'cost $');
      check(limits.maxLatencyMs, run.durationMs, 'latency ms');
      const score = checked ? (checked - over.length) / checked : 1;
      return { score, reason: over.length ? over.join('; ') : undefined };
    },
  });
}

function round(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(4);
}
