import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSameObservationTracker, observationSimilarity } from '../../src/agent/guards/index.js';

// The guard's definition, written the plain way (regexes, a Map of string bigrams): the guard reads
// observations faster, and must give exactly these numbers and decisions.
const normalize = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, '');
function bigrams(text: string): Map<string, number> {
  const chars = [...text];
  const grams = new Map<string, number>();
  for (let i = 0; i < chars.length - 1; i++)
    grams.set(chars[i] + chars[i + 1], (grams.get(chars[i] + chars[i + 1]) ?? 0) + 1);
  return grams;
}
function plainSimilarity(a: string, b: string): number {
  const x = normalize(a);
  const y = normalize(b);
  if (x === y) return 1;
  const masked = (t: string) =>
    normalize(
      t
        .normalize('NFKC')
        .toLowerCase()
        .replace(/[a-z0-9_-]*\d[a-z0-9_-]*/g, '0'),
    );
  if (a.length < 200 && b.length < 200 && masked(a) === masked(b) && masked(a).replace(/0/g, '').length >= 4) return 1;
  if (x.replace(/\d+/g, '0') === y.replace(/\d+/g, '0')) return 0;
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
function plainDecisions(observations: string[], limit: number, threshold: number): string[] {
  let last: string | undefined;
  let count = 0;
  return observations.map((o) => {
    const same = last !== undefined && (o === last || plainSimilarity(o, last) >= threshold);
    count = same ? count + 1 : 1;
    last = o;
    return count === limit ? 'warn' : count > limit ? 'stop' : '';
  });
}

// Text near the fast path's edges: every ASCII character (spaces, controls, punctuation, case, digits),
// fullwidth and compatibility forms NFKC changes, Chinese, a surrogate pair, and a lone surrogate.
const piece = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)), maxLength: 12 }),
  fc.constantFrom(
    '未找到',
    '关于',
    '北京',
    '天气',
    '的信息',
    '，',
    '。',
    '“',
    '”',
    'Ａ',
    '１２',
    'ﬁ',
    '①',
    '㎏',
    '😀',
    '\ud800',
    '\u00a0',
    'ª',
    '½',
    '«',
    'ß',
    'É',
    'e\u0301',
  ),
  fc.string({ unit: 'binary', maxLength: 6 }),
);
const text = fc.array(piece, { maxLength: 10 }).map((parts) => parts.join(''));

describe('observationSimilarity is the Dice coefficient of normalised character bigrams', () => {
  it('gives exactly the plain definition’s number on any text', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(observationSimilarity(a, b)).toBe(plainSimilarity(a, b));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the plain number on near-duplicates (edits of one text), where the bigrams are compared', () => {
    const edited = fc
      .tuple(text, text, text, text)
      .map(([head, mid, other, tail]) => [`${head}${mid}${tail}`, `${head}${other}${tail}`]);
    fc.assert(
      fc.property(edited, ([a, b]) => {
        expect(observationSimilarity(a, b)).toBe(plainSimilarity(a, b));
      }),
      { numRuns: 3000 },
    );
  });

  it('counts texts as alike when their similarity is exactly the threshold', () => {
    // 2 of 3 bigrams shared: 2·2 / (2 + 3) = 0.8, the default threshold, which counts.
    expect(observationSimilarity('abc', 'abcd')).toBe(0.8);
    const tracker = createSameObservationTracker({ limit: 3, threshold: 0.8 });
    expect(['abc', 'abcd', 'abc'].map((o) => tracker.check(o).warning !== undefined)).toEqual([false, false, true]);
  });

  it('the tracker warns and stops on exactly the steps the plain definition does', () => {
    const base = ['未找到关于“北京天气”的信息。', 'No results for "x".', 'status 42%', '2'];
    const observation = fc.oneof(
      fc.constantFrom(...base),
      text,
      fc.constantFrom(...base).map((s) => `${s} `),
    );
    fc.assert(
      fc.property(
        fc.array(observation, { maxLength: 12 }),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom(0, 0.5, 0.8, 1, 1.5),
        (observations, limit, threshold) => {
          const tracker = createSameObservationTracker({ limit, threshold });
          const decisions = observations.map((o) => {
            const r = tracker.check(o);
            return r.warning ? 'warn' : r.stop ? 'stop' : '';
          });
          expect(decisions).toEqual(plainDecisions(observations, limit, threshold));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
