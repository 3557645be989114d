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

/** Numbers by position, NaN where none was set; grows as positions arrive. */
class Slots {
  private data = new Float64Array(64).fill(Number.NaN);
  /** One past the highest position set. */
  length = 0;

  set(at: number, value: number): void {
    if (at >= this.data.length) {
      const grown = new Float64Array(Math.max(at + 1, this.data.length * 2)).fill(Number.NaN);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[at] = value;
    if (at >= this.length) this.length = at + 1;
  }

  get(at: number): number {
    return at < this.data.length ? this.data[at] : Number.NaN;
  }
}

interface ScorerTally {
  /** The score of each trial, at `caseIndex × trials + trial`. */
  values: Slots;
  n: number;
  passed: number;
  errors: number;
}

/** A tally for an experiment of `trials` trials per case (trial numbers are below it). */
export function summaryTally(trials: number): SummaryTally {
  const k = Math.max(1, trials);
  const caseTrials = new Slots();
  const casePassed = new Slots();
  const scorers = new Map<string, ScorerTally>();
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
    for (const s of t.scores) {
      let tally = scorers.get(s.name);
      if (!tally) {
        tally = { values: new Slots(), n: 0, passed: 0, errors: 0 };
        scorers.set(s.name, tally);
      }
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
    const perCase: { trials: number; passed: number }[] = [];
    for (let c = 0; c < caseTrials.length; c++) {
      const n = caseTrials.get(c);
      if (n > 0) perCase.push({ trials: n, passed: casePassed.get(c) });
    }
    const summaries: Record<string, ScorerSummary> = {};
    for (const [name, tally] of scorers) {
      // One mean per case (over its trials, in trial order), in case order: trials of a case are not
      // counted as independent, and the seeded bootstrap sees the same sequence on every run.
      const means: number[] = [];
      for (let c = 0; c < caseTrials.length; c++) {
        let sum = 0;
        let n = 0;
        for (let t = 0; t < k; t++) {
          const v = tally.values.get(c * k + t);
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
    for (let j = 1; j <= trials; j++) {
      const avg = (f: (c: { trials: number; passed: number }) => number) =>
        perCase.length ? perCase.reduce((s, c) => s + f(c), 0) / perCase.length : 0;
      passAt[j] = avg((c) => passAtK(c.trials, c.passed, j));
      passHat[j] = avg((c) => passHatK(c.trials, c.passed, j));
    }
    const sorted = Float64Array.from(latencies).sort();
    return {
      cases: perCase.length,
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
