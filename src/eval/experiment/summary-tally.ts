import type { ExperimentSummary, ScorerSummary, TrialRecord } from './experiment-types.js';
import { bootstrapMean, passAtK, passHatK } from './stats.js';

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

  set(at: number, value: number): void {
    while (at >= this.data.length) this.data.push(Number.NaN);
    this.data[at] = value;
    if (at >= this.length) this.length = at + 1;
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
}

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
  const latencies: number[] = [];
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
    caseTrials.set(c, (caseTrials.get(c) || 0) + 1);
    casePassed.set(c, (casePassed.get(c) || 0) + (t.pass ? 1 : 0));
    const slot = c * k + t.trial;
    for (let j = 0; j < t.scores.length; j++) {
      const s = t.scores[j];
      let tally = inOrder[j]?.name === s.name ? inOrder[j] : scorers.get(s.name);
      if (!tally) {
        tally = { name: s.name, values: new Slots(cases * k), n: 0, passed: 0, errors: 0 };
        scorers.set(s.name, tally);
      }
      inOrder[j] = tally;
      tally.values.set(slot, s.score);
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
    latencies.push(t.latencyMs);
  }

  function summary(options: { durationMs: number; seed?: number }): ExperimentSummary {
    // Once per experiment, but over every case: plain loops over the slots' arrays, no object per case.
    const trialsOf: number[] = [];
    const passedOf: number[] = [];
    for (let c = 0; c < caseTrials.length; c++) {
      const n = caseTrials.get(c);
      if (n > 0) {
        trialsOf.push(n);
        passedOf.push(casePassed.get(c));
      }
    }
    const summaries: Record<string, ScorerSummary> = {};
    for (const [name, tally] of scorers) {
      // One mean per case (over its trials, in trial order), in case order: trials of a case are not
      // counted as independent, and the seeded bootstrap sees the same sequence on every run.
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
      const estimate = bootstrapMean(means, { seed: options.seed });
      summaries[name] = {
        mean: estimate.mean,
        low: estimate.low,
        high: estimate.high,
        n: estimate.n,
        passRate: tally.n ? tally.passed / tally.n : 0,
        errors: tally.errors,
      };
    }
    const passAt: Record<number, number> = {};
    const passHat: Record<number, number> = {};
    const cases = trialsOf.length;
    for (let j = 1; j <= trials; j++) {
      let at = 0;
      let hat = 0;
      for (let i = 0; i < cases; i++) {
        at += passAtK(trialsOf[i], passedOf[i], j);
        hat += passHatK(trialsOf[i], passedOf[i], j);
      }
      passAt[j] = cases ? at / cases : 0;
      passHat[j] = cases ? hat / cases : 0;
    }
    const sorted = Float64Array.from(latencies).sort();
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
      meanLatencyMs: sorted.length ? sorted.reduce((s, v) => s + v, 0) / sorted.length : 0,
      p95LatencyMs: sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)] : 0,
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
