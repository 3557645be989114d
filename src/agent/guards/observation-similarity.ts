import { canonicalJson } from './repetition-guard.js';

/**
 * An observation as the similarity check reads it. Each field is worked out on first use and kept:
 * the loop compares every observation with the one before, so each is analysed once, and only as far
 * as a comparison needs (most stop at the exact or the normalised text).
 */
export interface ObservationReading {
  readonly text: string;
  /**
   * The calls that produced it, read only when it is alike the observation before: a number the model
   * asked for ("step 3", page 4) is progress, not a counter, and so is a rephrased call that brings
   * something new (see `rephrasedWithNews`).
   */
  readonly inputs?: readonly { readonly name?: string; readonly input: unknown }[];
  normal?: string;
  /** `normal` of the text with its numbers, dates and ids masked (see `maskedOf`). */
  masked?: string;
  /** How often each character bigram of `normal` occurs (see `countGrams`). */
  grams?: Map<number, number>;
  /** How often each bigram of `masked` occurs (see `rephrasedWithNews`). */
  maskedGrams?: Map<string, number>;
}

/** A reading of `text` (what `inputs` asked for), analysed lazily. */
export function readObservation(text: string, inputs?: ObservationReading['inputs']): ObservationReading {
  // Every field in the literal: filled in later, a field added to the object would move it to a new
  // shape and allocate its out-of-object store (the loop reads one observation a step).
  return { text, inputs, normal: undefined, masked: undefined, grams: undefined, maskedGrams: undefined };
}

const SPACE_PUNCTUATION_SYMBOL = /[\s\p{P}\p{S}]+/gu;

/** Case, width, spaces, punctuation and symbols out: what is left is what an observation says. */
function normalize(text: string): string {
  return isAscii(text)
    ? normalizeAscii(text)
    : text.normalize('NFKC').toLowerCase().replace(SPACE_PUNCTUATION_SYMBOL, '');
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** ASCII spaces (\t to \r, space) and the ASCII characters of Unicode's P and S categories. */
function removable(code: number): boolean {
  return (
    (code >= 9 && code <= 13) ||
    (code >= 32 && code <= 47) ||
    (code >= 58 && code <= 64) ||
    (code >= 91 && code <= 96) ||
    (code >= 123 && code <= 126)
  );
}

/**
 * `normalize` for ASCII text, without the Unicode regex (a µs on a short line; the loop checks every
 * observation): NFKC leaves ASCII as it is, so only the case and the removable characters change.
 */
function normalizeAscii(text: string): string {
  const lower = text.toLowerCase();
  let out = '';
  let from = 0;
  for (let i = 0; i < lower.length; i++) {
    if (!removable(lower.charCodeAt(i))) continue;
    if (i > from) out += lower.slice(from, i);
    from = i + 1;
  }
  return from === 0 ? lower : out + lower.slice(from);
}

/**
 * Whether `a` and `b` are the same once each run of ASCII digits is one `0` (what comparing
 * `a.replace(/\d+/g, '0')` with `b.replace(/\d+/g, '0')` gives), compared in place: the loop compares
 * every observation with the one before, and most differ, so nothing is built for them.
 */
function sameWithoutDigits(a: string, b: string): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(j);
    const dx = isDigit(x);
    if (dx !== isDigit(y)) return false;
    if (dx) {
      while (i < a.length && isDigit(a.charCodeAt(i))) i++;
      while (j < b.length && isDigit(b.charCodeAt(j))) j++;
      continue;
    }
    if (x !== y) return false;
    i++;
    j++;
  }
  return i === a.length && j === b.length;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function normalOf(reading: ObservationReading): string {
  reading.normal ??= normalize(reading.text);
  return reading.normal;
}

/** Observations shorter than this (an error, an empty result) are alike when only numbers or ids differ. */
export const SHORT_OBSERVATION = 200;

// An ASCII word holding a digit: a number, a date ("2026-12-05"), a version or an id ("req_8f3a2c").
const NUMBER_OR_ID = /[a-z0-9_-]*\d[a-z0-9_-]*/g;

/**
 * The normal text with every number, date and id as one `0`: "未找到结果（第 3 次）" and
 * "未找到结果（第 4 次）" read the same. Only short observations are compared this way.
 */
function maskedOf(reading: ObservationReading): string {
  reading.masked ??= mask(reading.text);
  return reading.masked;
}

function mask(text: string): string {
  return normalize(text.normalize('NFKC').toLowerCase().replace(NUMBER_OR_ID, '0'));
}

/**
 * True when a number or id that `x` has and `y` has not is one the model asked for in `x`'s call:
 * echoing "step 3" after "step 2" follows the model's input, while "未找到结果（第 3 次）" counts on
 * by itself.
 */
function followsInput(x: ObservationReading, y: ObservationReading): boolean {
  if (!x.inputs?.length) return false;
  const before = new Set(numbersOf(y.text));
  const moved = numbersOf(x.text).filter((n) => !before.has(n));
  if (moved.length === 0) return false;
  const asked = new Set(numbersOf(JSON.stringify(x.inputs.map((c) => c.input))));
  return moved.some((n) => asked.has(n));
}

function numbersOf(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(NUMBER_OR_ID) ?? [];
}

/**
 * A message, not a bare value: a tool that returns "2", then "4", then "6" is making progress. Read on
 * the masked text (its `0`s are the masked numbers and ids), and first on the normal text, whose
 * non-digits bound the masked text's: a bare value ("= 12.5") is not masked at all.
 */
function hasWords(text: string): boolean {
  let words = 0;
  for (let i = 0; i < text.length && words < MIN_WORDS; i++) if (!isDigit(text.charCodeAt(i))) words++;
  return words >= MIN_WORDS;
}
const MIN_WORDS = 4;

function isShort(reading: ObservationReading): boolean {
  return reading.text.length < SHORT_OBSERVATION;
}

/**
 * Counts the reading's character bigrams (code point pairs, one number each: CJK text has no spaces,
 * so characters, not words, are the unit) and returns how many it shares with
 * `other`'s counts, a repeated bigram counting as often as it is in both: one pass, one Map.
 */
function countGrams(reading: ObservationReading, other?: Map<number, number>): number {
  const text = normalOf(reading);
  const counts = new Map<number, number>();
  let shared = 0;
  let previous = -1;
  for (let i = 0; i < text.length; i++) {
    let point = text.charCodeAt(i);
    if (point >= 0xd800 && point <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        point = (point - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        i++;
      }
    }
    if (previous >= 0) {
      // Two BMP characters make a 32-bit integer, which V8 keeps unboxed (CJK pairs as `* 0x110000`
      // were boxed doubles and made the Map twice as slow); a pair with an astral character goes above.
      const gram = (previous | point) <= 0xffff ? (previous << 16) | point : 2 ** 32 + previous * 0x110000 + point;
      const seen = (counts.get(gram) ?? 0) + 1;
      counts.set(gram, seen);
      if (other && seen <= (other.get(gram) ?? 0)) shared++;
    }
    previous = point;
  }
  reading.grams = counts;
  return shared;
}

/** Bigrams two readings share; a reading's counts are made once, against the other's when it has them. */
function sharedGrams(x: ObservationReading, y: ObservationReading): number {
  if (x.grams && y.grams) {
    let shared = 0;
    for (const [gram, count] of x.grams) shared += Math.min(count, y.grams.get(gram) ?? 0);
    return shared;
  }
  if (x.grams) return countGrams(y, x.grams);
  if (!y.grams) countGrams(y);
  return countGrams(x, y.grams);
}

/** The number of bigrams of a text: its code points less one (a surrogate pair is one code point). */
function gramCount(reading: ObservationReading): number {
  const text = normalOf(reading);
  let points = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        points--;
        i++;
      }
    }
  }
  return Math.max(0, points - 1);
}

/**
 * `observationSimilarity` of two readings, or, when their bigram counts alone keep it under `floor`,
 * that bound (also under `floor`) without comparing bigrams: texts of very different lengths cannot be
 * alike, and the comparison costs time in proportion to their length.
 */
export function readingSimilarity(x: ObservationReading, y: ObservationReading, floor = 0): number {
  if (normalOf(x) === normalOf(y)) return 1;
  // A short message that only counts on ("No results (attempt 4)") says nothing new; in a long result
  // a moved number is progress (a counter, a percentage).
  if (isShort(x) && isShort(y) && hasWords(normalOf(x)) && maskedOf(x) === maskedOf(y) && hasWords(maskedOf(x))) {
    return followsInput(x, y) || followsInput(y, x) ? 0 : 1;
  }
  if (sameWithoutDigits(normalOf(x), normalOf(y))) return 0;
  const a = gramCount(x);
  const b = gramCount(y);
  const total = a + b;
  if (total === 0) return 0;
  const bound = (2 * Math.min(a, b)) / total;
  if (bound < floor) return bound;
  return (2 * sharedGrams(x, y)) / total;
}

/**
 * How alike two observations are, 0–1: the Dice coefficient of their character bigrams after
 * normalising, so a changed word in a long "not found" message barely moves it. Two short observations
 * (under `SHORT_OBSERVATION` characters) that differ only in numbers, dates or ids are 1: an error or an
 * empty result that counts attempts says nothing new. Two longer ones that differ only in their numbers
 * are 0: a counter, a percentage or an id that moved is progress.
 */
export function observationSimilarity(a: string, b: string): number {
  return readingSimilarity(readObservation(a), readObservation(b));
}

/** Bigrams `x` must add, beyond its calls' own words, to say something new. */
const MIN_NEWS = 4;

/**
 * True when `x` came from calls that asked something else than the last observation's did (more than
 * case, spaces or punctuation apart) and `x` says something that none of the observations `before` it
 * said and that its calls do not explain: a search rephrased into other results ("Similar: […]" with
 * other titles) is progress, however alike the texts are. A reply that only echoes the new query
 * ("nothing found for <query>"), moves a number or an id, or says again what an earlier one said (two
 * queries in turn) says nothing new. Read only when two observations in a row are alike.
 */
export function rephrasedWithNews(x: ObservationReading, before: readonly ObservationReading[]): boolean {
  const y = before.at(-1);
  if (!x.inputs?.length || !y?.inputs?.length) return false;
  if (normalize(callsText(x.inputs)) === normalize(callsText(y.inputs))) return false;
  const echoed = bigrams(mask(callsText(x.inputs)));
  let news = 0;
  for (const [gram, count] of maskedGramsOf(x)) {
    if (echoed.has(gram)) continue;
    let seen = 0;
    for (const earlier of before) seen = Math.max(seen, maskedGramsOf(earlier).get(gram) ?? 0);
    news += Math.max(0, count - seen);
    if (news >= MIN_NEWS) return true;
  }
  return false;
}

function callsText(calls: NonNullable<ObservationReading['inputs']>): string {
  return calls.map((call) => `${call.name ?? ''} ${canonicalJson(call.input)}`).join('\n');
}

function maskedGramsOf(reading: ObservationReading): Map<string, number> {
  reading.maskedGrams ??= bigrams(maskedOf(reading));
  return reading.maskedGrams;
}

/** How often each code-point bigram occurs in `text`. */
function bigrams(text: string): Map<string, number> {
  const points = Array.from(text);
  const counts = new Map<string, number>();
  for (let i = 1; i < points.length; i++) {
    const gram = points[i - 1] + points[i];
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}
