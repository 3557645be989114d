import type { StopReason } from './stop-reason.js';

/**
 * Watches for the same observation step after step, or nearly the same ("未找到关于北京天气的信息" then
 * "未找到关于北京今日天气的信息"): at `limit` in a row a warning, one more and the run ends `loop_detected`.
 */
export interface SameObservationTracker {
  check(observation: string): { warning?: string; stop?: StopReason };
}

/** Options for `createSameObservationTracker`. */
export interface SameObservationOptions {
  /** Observations in a row before the warning. */
  limit: number;
  /** How similar two observations must be to count as the same, 0–1; 1 means identical only. */
  threshold: number;
}

/** Case, width, spaces, punctuation and symbols out: what is left is what an observation says. */
function normalize(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, '');
}

/** Character bigrams with counts: CJK text has no spaces, so characters, not words, are the unit. */
function bigrams(text: string): Map<string, number> {
  const chars = [...text];
  const grams = new Map<string, number>();
  for (let i = 0; i < chars.length - 1; i++) {
    const gram = chars[i] + chars[i + 1];
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  return grams;
}

const DIGITS = /\d+/g;

/**
 * How alike two observations are, 0–1: the Dice coefficient of their character bigrams after
 * normalising, so a changed word in a long "not found" message barely moves it. Two observations that
 * differ only in their numbers are 0: a counter, a percentage or an id that moved is progress.
 */
export function observationSimilarity(a: string, b: string): number {
  const x = normalize(a);
  const y = normalize(b);
  if (x === y) return 1;
  if (x.replace(DIGITS, '0') === y.replace(DIGITS, '0')) return 0;
  const ga = bigrams(x);
  const gb = bigrams(y);
  let shared = 0;
  let total = 0;
  for (const [gram, count] of ga) {
    shared += Math.min(count, gb.get(gram) ?? 0);
    total += count;
  }
  for (const count of gb.values()) total += count;
  return total === 0 ? 0 : (2 * shared) / total;
}

export function createSameObservationTracker(options: SameObservationOptions): SameObservationTracker {
  const { limit, threshold } = options;
  let last: string | undefined;
  let count = 0;
  let exact = true;
  return {
    check(observation) {
      const similarity = last === undefined ? 0 : observationSimilarity(observation, last);
      const same = last !== undefined && (observation === last || similarity >= threshold);
      count = same ? count + 1 : 1;
      exact = count === 1 ? true : exact && observation === last;
      last = observation;
      const what = exact ? 'the same observation' : 'nearly the same observation';
      if (count === limit) {
        return {
          warning: `This is ${what} ${count} steps in a row: no progress. Change your approach or give the final answer.`,
        };
      }
      if (count > limit) {
        return {
          stop: {
            status: 'loop_detected',
            code: 'same_observation',
            message: `${exact ? 'The same' : 'Nearly the same'} observation came back ${count} steps in a row.`,
          },
        };
      }
      return {};
    },
  };
}
