import type { ExperimentMeta, TrialRecord } from './experiment-types.js';
import { bootstrapMean, type Estimate, pairedBootstrap, signTest } from './stats.js';

/** An experiment to compare: what it was and its trials (from a store, or a JSON report). */
export interface ExperimentTrials {
  meta: ExperimentMeta;
  trials: AsyncIterable<TrialRecord> | Iterable<TrialRecord>;
}

/** When a change counts. */
export interface CompareThresholds {
  /** A scorer regresses when its mean drops by more than this (and the paired interval lies below 0). Default 0. */
  maxDrop?: number;
  /** Per-scorer drops, overriding `maxDrop`. */
  perScorer?: Record<string, number>;
  /** A regression also when more cases than this broke (passed in A, fail in B). Default: no limit. */
  maxBroken?: number;
}

/** One scorer, A against B. `delta` is B − A over the shared cases, with a paired bootstrap interval. */
export interface ScorerComparison {
  name: string;
  a: Estimate;
  b: Estimate;
  delta: Estimate;
  /** Exact sign test on the shared cases' paired differences. */
  signTest: { pValue: number; better: number; worse: number };
  verdict: 'improved' | 'regressed' | 'unchanged';
}

/** The comparison: per scorer, the cases that changed, and a verdict against the thresholds. */
export interface Comparison {
  a: ExperimentMeta;
  b: ExperimentMeta;
  sharedCases: number;
  onlyInA: string[];
  onlyInB: string[];
  scorers: ScorerComparison[];
  passRate: { a: number; b: number; delta: Estimate };
  /** Cases that failed in A (some trial failed) and pass in B (every trial passed). */
  fixed: string[];
  /** Cases that passed in A and fail in B. */
  broken: string[];
  verdict: 'regression' | 'improvement' | 'unchanged';
  reasons: string[];
  /** Every shared case whose score changed, per scorer (for a per-case diff chart). */
  changes: { id: string; scorer: string; a: number; b: number }[];
}

interface CaseView {
  pass: boolean;
  passRate: number;
  scores: Map<string, number>;
}

async function byCase(trials: ExperimentTrials['trials']): Promise<Map<string, CaseView>> {
  const sums = new Map<string, { n: number; passed: number; scores: Map<string, { sum: number; n: number }> }>();
  for await (const t of trials) {
    const entry = sums.get(t.caseId) ?? { n: 0, passed: 0, scores: new Map() };
    entry.n++;
    if (t.pass) entry.passed++;
    for (const s of t.scores) {
      const acc = entry.scores.get(s.name) ?? { sum: 0, n: 0 };
      acc.sum += s.score;
      acc.n++;
      entry.scores.set(s.name, acc);
    }
    sums.set(t.caseId, entry);
  }
  const out = new Map<string, CaseView>();
  for (const [id, e] of sums) {
    const scores = new Map([...e.scores].map(([name, acc]) => [name, acc.sum / acc.n] as const));
    out.set(id, { pass: e.passed === e.n, passRate: e.passed / e.n, scores });
  }
  return out;
}

/**
 * Compares experiment B (the change) with A (the baseline) case by case. Per scorer: both means with
 * bootstrap intervals, the paired difference over the shared cases with a paired bootstrap 95% interval
 * (cases resampled, pairs kept together), and an exact sign test. A scorer regressed when its mean fell
 * by more than the threshold and the whole interval lies below zero (improved: the mirror). The verdict
 * is `regression` if any scorer regressed or too many cases broke.
 *
 * @example
 * const result = await compareExperiments(await loadExperiment(store, 'main'), await loadExperiment(store, 'pr-42'), { maxDrop: 0.02 });
 * if (result.verdict === 'regression') process.exitCode = 1;
 */
export async function compareExperiments(
  a: ExperimentTrials,
  b: ExperimentTrials,
  thresholds: CompareThresholds = {},
): Promise<Comparison> {
  const [casesA, casesB] = await Promise.all([byCase(a.trials), byCase(b.trials)]);
  const shared = [...casesA.keys()].filter((id) => casesB.has(id));
  const names = [...new Set([...a.meta.scorers, ...b.meta.scorers])];
  const reasons: string[] = [];
  const scorers = names.map((name): ScorerComparison => {
    const values = (cases: Map<string, CaseView>) =>
      [...cases.values()].flatMap((c) => (c.scores.has(name) ? [c.scores.get(name) as number] : []));
    const pairs = shared.filter((id) => casesA.get(id)?.scores.has(name) && casesB.get(id)?.scores.has(name));
    const diffs = pairs.map(
      (id) => (casesB.get(id)?.scores.get(name) as number) - (casesA.get(id)?.scores.get(name) as number),
    );
    const delta = pairedBootstrap(diffs);
    const limit = thresholds.perScorer?.[name] ?? thresholds.maxDrop ?? 0;
    const verdict =
      delta.high < 0 && -delta.mean > limit
        ? 'regressed'
        : delta.low > 0 && delta.mean > limit
          ? 'improved'
          : 'unchanged';
    if (verdict === 'regressed') {
      reasons.push(
        `${name} fell by ${fmt(-delta.mean)} (95% CI ${fmt(delta.low)}..${fmt(delta.high)}), more than ${fmt(limit)}`,
      );
    }
    return {
      name,
      a: bootstrapMean(values(casesA)),
      b: bootstrapMean(values(casesB)),
      delta,
      signTest: signTest(diffs),
      verdict,
    };
  });
  const changes = names.flatMap((name) =>
    shared.flatMap((id) => {
      const before = casesA.get(id)?.scores.get(name);
      const after = casesB.get(id)?.scores.get(name);
      return before !== undefined && after !== undefined && before !== after
        ? [{ id, scorer: name, a: before, b: after }]
        : [];
    }),
  );
  const fixed = shared.filter((id) => !casesA.get(id)?.pass && casesB.get(id)?.pass);
  const broken = shared.filter((id) => casesA.get(id)?.pass && !casesB.get(id)?.pass);
  if (thresholds.maxBroken !== undefined && broken.length > thresholds.maxBroken) {
    reasons.push(`${broken.length} cases broke (at most ${thresholds.maxBroken} allowed)`);
  }
  const rate = (cases: Map<string, CaseView>) => mean(shared.map((id) => cases.get(id)?.passRate ?? 0));
  const passDiffs = shared.map((id) => (casesB.get(id)?.passRate ?? 0) - (casesA.get(id)?.passRate ?? 0));
  const improved = scorers.some((s) => s.verdict === 'improved');
  return {
    a: a.meta,
    b: b.meta,
    sharedCases: shared.length,
    onlyInA: [...casesA.keys()].filter((id) => !casesB.has(id)),
    onlyInB: [...casesB.keys()].filter((id) => !casesA.has(id)),
    scorers,
    passRate: { a: rate(casesA), b: rate(casesB), delta: pairedBootstrap(passDiffs) },
    fixed,
    broken,
    verdict: reasons.length ? 'regression' : improved ? 'improvement' : 'unchanged',
    reasons,
    changes,
  };
}

function mean(values: number[]): number {
  return values.length ? values.reduce((s, v) => s + v, 0) / values.length : 0;
}

function fmt(n: number): string {
  return n.toFixed(3);
}
