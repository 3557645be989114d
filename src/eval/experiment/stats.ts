import { mulberry32 } from '../../core/index.js';

/** A mean with its 95% interval. */
export interface Estimate {
  mean: number;
  low: number;
  high: number;
  n: number;
}

/** A small seeded generator (mulberry32), so the same data gives the same intervals on every run. */
export function seededRandom(seed: number): () => number {
  return mulberry32(seed);
}

function mean(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return values.length ? sum / values.length : 0;
}

/**
 * The mean of `values` with a percentile bootstrap 95% interval (`resamples` draws with replacement,
 * seeded). Pass one value per case (a case's mean over its trials), so trials of a case are not counted
 * as independent.
 *
 * Values of one or two distinct levels (pass/fail scores, the common case) draw each resample's count
 * of the higher level from its binomial distribution, which is exactly the distribution of resampling
 * with replacement, in O(resamples × log n) instead of O(resamples × n).
 */
export function bootstrapMean(
  values: readonly number[],
  options: { resamples?: number; seed?: number } = {},
): Estimate {
  const n = values.length;
  const m = mean(values);
  if (n < 2) return { mean: m, low: m, high: m, n };
  const resamples = options.resamples ?? 1000;
  const seed = (options.seed ?? 47) >>> 0;
  const levels = twoLevels(values);
  if (levels && levels.high === levels.low) return { mean: m, low: m, high: m, n };
  const means = levels ? binomialMeans(n, levels, resamples, seed) : resampledMeans(values, resamples, seed);
  return percentileInterval(m, n, means);
}

/**
 * `bootstrapMean` of `n` values each 0 or 1, `ones` of them 1, from those counts alone: the same estimate,
 * without the values.
 */
export function bootstrapBinary(
  n: number,
  ones: number,
  options: { resamples?: number; seed?: number } = {},
): Estimate {
  const m = n ? ones / n : 0;
  if (n < 2 || ones === 0 || ones === n) return { mean: m, low: m, high: m, n };
  const resamples = options.resamples ?? 1000;
  const means = binomialMeans(n, { low: 0, high: 1, count: ones }, resamples, (options.seed ?? 47) >>> 0);
  return percentileInterval(m, n, means);
}

/** The estimate with the 2.5th and 97.5th percentiles of the resample means as its interval (sorts `means`). */
function percentileInterval(m: number, n: number, means: Float64Array): Estimate {
  const resamples = means.length;
  means.sort();
  return { mean: m, low: means[Math.floor(0.025 * resamples)], high: means[Math.ceil(0.975 * resamples) - 1], n };
}

/** The values' levels when there are at most two (`count` of them at `high`), else undefined. */
function twoLevels(values: readonly number[]): { low: number; high: number; count: number } | undefined {
  let low = values[0];
  let high = values[0];
  for (let i = 1; i < values.length; i++) {
    const v = values[i];
    if (v === low || v === high) continue;
    if (low !== high) return undefined;
    if (v < low) low = v;
    else high = v;
  }
  let count = 0;
  for (let i = 0; i < values.length; i++) if (values[i] === high) count++;
  return { low, high, count };
}

/** Resample means drawn one value at a time: resamples × n draws. */
function resampledMeans(values: readonly number[], resamples: number, seed: number): Float64Array {
  const n = values.length;
  const data = Float64Array.from(values);
  const means = new Float64Array(resamples);
  // mulberry32 (`seededRandom`) written out in the loop: resamples × n draws are most of an experiment's
  // summary, and the inlined generator gives the very same sequence at a fraction of the cost.
  let a = seed;
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = Math.imul(a ^ (a >>> 15), a | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      sum += data[Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n)];
    }
    means[r] = sum / n;
  }
  return means;
}

/**
 * The `k`-th smallest of `values` (0-based), found in place in linear time on average (quickselect): a
 * percentile without sorting every value. Reorders `values`; none may be NaN.
 */
export function kthSmallest(values: number[], k: number): number {
  let low = 0;
  let high = values.length - 1;
  while (low < high) {
    const pivot = values[(low + high) >> 1];
    let i = low;
    let j = high;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const swap = values[i];
        values[i++] = values[j];
        values[j--] = swap;
      }
    }
    if (k <= j) high = j;
    else if (k >= i) low = i;
    else return values[k];
  }
  return values[k];
}

/**
 * Resample means of two-level data: a resample of n draws holds Binomial(n, count / n) values at `high`,
 * read off the binomial's cumulative distribution with one seeded uniform per resample.
 */
function binomialMeans(
  n: number,
  levels: { low: number; high: number; count: number },
  resamples: number,
  seed: number,
): Float64Array {
  const p = levels.count / n;
  // The pmf in log space from k = 0 (no underflow at large n), scaled by its largest term.
  const logPmf = new Float64Array(n + 1);
  const step = Math.log(p) - Math.log1p(-p);
  logPmf[0] = n * Math.log1p(-p);
  let top = logPmf[0];
  for (let k = 0; k < n; k++) {
    logPmf[k + 1] = logPmf[k] + Math.log((n - k) / (k + 1)) + step;
    if (logPmf[k + 1] > top) top = logPmf[k + 1];
  }
  const cdf = new Float64Array(n + 1);
  let total = 0;
  for (let k = 0; k <= n; k++) {
    total += Math.exp(logPmf[k] - top);
    cdf[k] = total;
  }
  const random = seededRandom(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    const u = random() * total;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid] > u) hi = mid;
      else lo = mid + 1;
    }
    means[r] = (lo * levels.high + (n - lo) * levels.low) / n;
  }
  return means;
}

function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

/** pass@k for one case with `passed` of `trials` passing: the chance at least one of k trials drawn passes (unbiased estimator). */
export function passAtK(trials: number, passed: number, k: number): number {
  if (trials < k) return passed > 0 ? 1 : 0;
  return 1 - choose(trials - passed, k) / choose(trials, k);
}

/** pass^k (τ-bench) for one case: the chance that all k trials drawn pass. */
export function passHatK(trials: number, passed: number, k: number): number {
  if (trials < k) return passed === trials ? 1 : 0;
  return choose(passed, k) / choose(trials, k);
}

/**
 * Two-sided exact sign test on paired differences (ties dropped): the chance of a split at least this
 * uneven if neither side were better. 1 when every pair ties.
 */
export function signTest(differences: readonly number[]): { pValue: number; better: number; worse: number } {
  const better = differences.filter((d) => d > 0).length;
  const worse = differences.filter((d) => d < 0).length;
  const n = better + worse;
  if (!n) return { pValue: 1, better, worse };
  const k = Math.min(better, worse);
  // log-space binomial tail, so large n does not overflow.
  let logC = 0;
  let tail = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logC += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logC - n * Math.LN2);
  }
  return { pValue: Math.min(1, 2 * tail), better, worse };
}

/** The mean of paired differences (b − a) with a paired bootstrap 95% interval: cases are resampled, pairs kept together. */
export function pairedBootstrap(
  differences: readonly number[],
  options: { resamples?: number; seed?: number } = {},
): Estimate {
  return bootstrapMean(differences, options);
}
