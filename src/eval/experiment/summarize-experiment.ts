import type { ExperimentSummary, ScorerSummary, TrialRecord } from './experiment-types.js';
import { bootstrapMean, passAtK, passHatK } from './stats.js';

interface CaseTally {
  trials: number;
  passed: number;
  scores: Map<string, number[]>;
}

/**
 * Folds trials (ordered by case, as stores yield them) into the summary. Only a case's trials and one
 * number per case and scorer are held at once, so 10,000 cases fold in a few megabytes.
 */
export async function summarizeTrials(
  trials: AsyncIterable<TrialRecord> | Iterable<TrialRecord>,
  options: { trials: number; durationMs: number; seed?: number },
): Promise<ExperimentSummary> {
  const caseMeans = new Map<string, number[]>();
  const scorePasses = new Map<string, { passed: number; errors: number; n: number }>();
  const latencies: number[] = [];
  const perCase: { trials: number; passed: number }[] = [];
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
  let current: CaseTally | undefined;
  let currentIndex = -1;

  const closeCase = () => {
    if (!current) return;
    perCase.push({ trials: current.trials, passed: current.passed });
    for (const [name, values] of current.scores) {
      const list = caseMeans.get(name) ?? [];
      list.push(values.reduce((s, v) => s + v, 0) / values.length);
      caseMeans.set(name, list);
    }
  };

  for await (const t of trials) {
    if (t.caseIndex !== currentIndex) {
      closeCase();
      current = { trials: 0, passed: 0, scores: new Map() };
      currentIndex = t.caseIndex;
    }
    const tally = current as CaseTally;
    tally.trials++;
    if (t.pass) tally.passed++;
    for (const s of t.scores) {
      const list = tally.scores.get(s.name) ?? [];
      list.push(s.score);
      tally.scores.set(s.name, list);
      const p = scorePasses.get(s.name) ?? { passed: 0, errors: 0, n: 0 };
      p.n++;
      if (s.pass) p.passed++;
      if (s.error) p.errors++;
      scorePasses.set(s.name, p);
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
  closeCase();

  const scorers: Record<string, ScorerSummary> = {};
  for (const [name, means] of caseMeans) {
    const p = scorePasses.get(name) ?? { passed: 0, errors: 0, n: 0 };
    scorers[name] = {
      ...bootstrapMean(means, { seed: options.seed }),
      passRate: p.n ? p.passed / p.n : 0,
      errors: p.errors,
    };
  }
  const passAt: Record<number, number> = {};
  const passHat: Record<number, number> = {};
  for (let k = 1; k <= options.trials; k++) {
    const avg = (f: (c: { trials: number; passed: number }) => number) =>
      perCase.length ? perCase.reduce((s, c) => s + f(c), 0) / perCase.length : 0;
    passAt[k] = avg((c) => passAtK(c.trials, c.passed, k));
    passHat[k] = avg((c) => passHatK(c.trials, c.passed, k));
  }
  latencies.sort((a, b) => a - b);
  return {
    cases: perCase.length,
    trials: totals.trials,
    passed: totals.passed,
    passRate: totals.trials ? totals.passed / totals.trials : 0,
    passAtK: passAt,
    passHatK: passHat,
    scorers,
    errors: totals.errors,
    steps: totals.steps,
    llmCalls: totals.llmCalls,
    promptTokens: totals.promptTokens,
    completionTokens: totals.completionTokens,
    costUsd: priced && anyCost ? totals.cost : undefined,
    scorerCostUsd: totals.scorerCost,
    meanLatencyMs: latencies.length ? latencies.reduce((s, v) => s + v, 0) / latencies.length : 0,
    p95LatencyMs: latencies.length
      ? latencies[Math.min(latencies.length - 1, Math.ceil(0.95 * latencies.length) - 1)]
      : 0,
    durationMs: options.durationMs,
  };
}
