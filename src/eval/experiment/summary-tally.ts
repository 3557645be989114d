import type { ExperimentSummary, ScorerSummary, TrialRecord } from './experiment-types.js';
import { bootstrapBinary, bootstrapMean, kthSmallest, passAtK, passHatK } from './stats.js';

/**
 * An experiment's summary folded one trial at a time, in any order: `add` each trial as it finishes
 * (or as a store yields it), then `summary` once at the end. Per trial it keeps a few numbers (each
 * score, the latency) in flat arrays by position, never the record, so 10,000 cases fold in well under
 * a megabyte per scorer, and the summary is the same whatever order the trials arrived in.
 */
export interface SummaryTally {
  add(trial: TrialRecord): void;
  /** Trials added so far that passed. */
  readonly passed: number;
  summary(options: { durationMs: number; seed?: number }): ExperimentSummary;
}

/**
 * Numbers by position, NaN where none was set; grows as positions arrive (made `size` long at first). A
 * plain array of doubles: a typed array costs far more to make (tens of microseconds each, an experiment
 * makes a few) than the few numbers it holds.
 */
class Slots {
  data: number[];
  /** One past the highest position set. */
  length = 0;

  constructor(size = 64) {
    this.data = new Array<number>(Math.max(64, size)).fill(Number.NaN);
  }

  /** Sets the number at `at`, and returns the one it replaces (NaN when none was set). */
  set(at: number, value: number): number {
    while (at >= this.data.length) this.data.push(Number.NaN);
    const before = this.data[at];
    this.data[at] = value;
    if (at >= this.length) this.length = at + 1;
    return before;
  }

  get(at: number): number {
    return at < this.data.length ? this.data[at] : Number.NaN;
  }
}

interface ScorerTally {
  name: string;
  /** The score of each trial, at `caseIndex × trials + trial`. */
  values: Slots;
  n: number;
  passed: number;
  errors: number;
  /** Positions set in `values`, how many of them hold 1, and whether every one holds 0 or 1. */
  set: number;
  ones: number;
  binary: boolean;
}

/** Where a case that ran `n` trials, `p` of them passed, is counted in the histogram (every p ≤ n apart). */
const bucket = (n: number, p: number) => (n * (n + 1)) / 2 + p;

/**
 * A tally for an experiment of `trials` trials per case (trial numbers are below it) and, when known,
 * `cases` cases (its arrays are made that long at once rather than grown).
 */
export function summaryTally(trials: number, cases = 0): SummaryTally {
  const k = Math.max(1, trials);
  const caseTrials = new Slots(cases);
  const casePassed = new Slots(cases);
  const scorers = new Map<string, ScorerTally>();
  /** The tallies in the order of the last trial's scores: scorers come in the same order trial after trial. */
  const inOrder: ScorerTally[] = [];
  /** Each trial's latency, at `caseIndex × trials + trial`. */
  const latencies = new Slots(cases * k);
  /** Cases by how many trials they ran and how many passed, at `bucket(n, p)`: what pass@k and pass^k read. */
  const byCounts: number[] = [0];
  const totals = {
    trials: 0,
    passed: 0,
    errors: 0,
    steps: 0,
    llmCalls: 0,
    promptTokens: 0,
    completionTokens: 0,
    cost: 0,
    scorerCost: 0,
  };
  let priced = true;
  let anyCost = false;

  function add(t: TrialRecord): void {
    const c = t.caseIndex;
    // The case moves from its bucket of the histogram (trials run, passed) to the next.
    const n = caseTrials.get(c) || 0;
    const p = casePassed.get(c) || 0;
    const q = p + (t.pass ? 1 : 0);
    if (n) byCounts[bucket(n, p)]--;
    const into = bucket(n + 1, q);
    while (byCounts.length <= into) byCounts.push(0);
    byCounts[into]++;
    caseTrials.set(c, n + 1);
    casePassed.set(c, q);
    const slot = c * k + t.trial;
    for (let j = 0; j < t.scores.length; j++) {
      const s = t.scores[j];
      let tally = inOrder[j]?.name === s.name ? inOrder[j] : scorers.get(s.name);
      if (!tally) {
        tally = {
          name: s.name,
          values: new Slots(cases * k),
          n: 0,
          passed: 0,
          errors: 0,
          set: 0,
          ones: 0,
          binary: true,
        };
        scorers.set(s.name, tally);
      }
      inOrder[j] = tally;
      const before = tally.values.set(slot, s.score);
      if (Number.isNaN(before)) tally.set++;
      else if (before === 1) tally.ones--;
      if (s.score === 1) tally.ones++;
      else if (s.score !== 0) tally.binary = false;
      tally.n++;
      if (s.pass) tally.passed++;
      if (s.error) tally.errors++;
      totals.scorerCost += s.costUsd ?? 0;
    }
    totals.trials++;
    if (t.pass) totals.passed++;
    if (t.status === 'error') totals.errors++;
    totals.steps += t.steps;
    totals.llmCalls += t.llmCalls;
    totals.promptTokens += t.promptTokens;
    totals.completionTokens += t.completionTokens;
    if (t.costUsd !== undefined) {
      totals.cost += t.costUsd;
      anyCost = true;
    } else if (t.promptTokens + t.completionTokens > 0) priced = false;
    latencies.set(slot, t.latencyMs);
  }

  /** A scorer's mean over cases with its interval: one mean per case (over its trials, in trial order), in case order. */
  function estimate(tally: ScorerTally, seed: number | undefined) {
    // One trial a case, each scored 0 or 1 (pass/fail scorers): the case means are those scores, and
    // their count of ones is all the bootstrap reads, without a loop over the cases.
    if (k === 1 && tally.binary) return bootstrapBinary(tally.set, tally.ones, { seed });
    // Trials of a case are not counted as independent, and the seeded bootstrap sees the same
    // sequence on every run.
    const means: number[] = [];
    const values = tally.values.data;
    const end = Math.min(caseTrials.length * k, values.length);
    for (let from = 0; from < end; from += k) {
      let sum = 0;
      let n = 0;
      for (let at = from; at < from + k && at < end; at++) {
        const v = values[at];
        if (!Number.isNaN(v)) {
          sum += v;
          n++;
        }
      }
      if (n) means.push(sum / n);
    }
    return bootstrapMean(means, { seed });
  }

  function summary(options: { durationMs: number; seed?: number }): ExperimentSummary {
    // Once per experiment, and then mostly cold: nothing here loops over the cases but the latencies'
    // sort (the histogram and the scorers' counts were kept as trials came).
    const summaries: Record<string, ScorerSummary> = {};
    for (const [name, tally] of scorers) {
      const { mean, low, high, n } = estimate(tally, options.seed);
      summaries[name] = {
        mean,
        low,
        high,
        n,
        passRate: tally.n ? tally.passed / tally.n : 0,
        errors: tally.errors,
      };
    }
    const passAt: Record<number, number> = {};
    const passHat: Record<number, number> = {};
    let cases = 0;
    for (let at = 0; at < byCounts.length; at++) cases += byCounts[at];
    for (let j = 1; j <= trials; j++) {
      let sumAt = 0;
      let sumHat = 0;
      for (let n = 1, at = 1; at < byCounts.length; n++) {
        for (let p = 0; p <= n; p++, at++) {
          const count = byCounts[at];
          if (!count) continue;
          sumAt += count * passAtK(n, p, j);
          sumHat += count * passHatK(n, p, j);
        }
      }
      passAt[j] = cases ? sumAt / cases : 0;
      passHat[j] = cases ? sumHat / cases : 0;
    }
    // Summed in position order (the same sum whatever order the trials came in), the 95th percentile
    // picked by selection: a typed copy sorted whole cost about 0.1 µs a case of a 1,000-case experiment.
    const present: number[] = [];
    let latencySum = 0;
    for (let at = 0; at < latencies.length; at++) {
      const v = latencies.data[at];
      if (!Number.isNaN(v)) {
        latencySum += v;
        present.push(v);
      }
    }
    const timed = present.length;
    return {
      cases,
      trials: totals.trials,
      passed: totals.passed,
      passRate: totals.trials ? totals.passed / totals.trials : 0,
      passAtK: passAt,
      passHatK: passHat,
      scorers: summaries,
      errors: totals.errors,
      steps: totals.steps,
      llmCalls: totals.llmCalls,
      promptTokens: totals.promptTokens,
      completionTokens: totals.completionTokens,
      costUsd: priced && anyCost ? totals.cost : undefined,
      scorerCostUsd: totals.scorerCost,
      meanLatencyMs: timed ? latencySum / timed : 0,
      p95LatencyMs: timed ? kthSmallest(present, Math.min(timed - 1, Math.ceil(0.95 * timed) - 1)) : 0,
      durationMs: options.durationMs,
    };
  }

  return {
    add,
    get passed() {
      return totals.passed;
    },
    summary,
  };
}
