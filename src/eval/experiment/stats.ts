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
 */
export function bootstrapMean(
  values: readonly number[],
  options: { resamples?: number; seed?: number } = {},
): Estimate {
  const n = values.length;
  const m = mean(values);
  if (n < 2) return { mean: m, low: m, high: m, n };
  const resamples = options.resamples ?? 1000;
  const data = Float64Array.from(values);
  const means = new Float64Array(resamples);
  // mulberry32 (`seededRandom`) written out in the loop: resamples × n draws are most of an experiment's
  // summary, and the inlined generator gives the very same sequence at a fraction of the cost.
  let a = (options.seed ?? 47) >>> 0;
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
  means.sort();
  return { mean: m, low: means[Math.floor(0.025 * resamples)], high: means[Math.ceil(0.975 * resamples) - 1], n };
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
