import type { RunResult } from '../core/index.js';
import { caseReport, type EvalReport, type EvalRunReport } from './eval-report.js';
import type { EvalCase, EvalSuite } from './eval-suite.js';
import type { ExperimentStore, TrialRecord } from './experiment/experiment-types.js';
import { runExperiment } from './experiment/run-experiment.js';
import { type CheckResult, type RunChecksOptions, runChecks } from './run-checks.js';
import { createScorer, type Scorer } from './scorers/scorer.js';

/** Progress after each finished run. */
export interface EvalProgress {
  done: number;
  total: number;
  passed: number;
  caseId: string;
  pass: boolean;
}

/** One progress-bar line: `[#####·····] 5/10 · 4 passed · last: add ✓`. */
export function formatProgress(progress: EvalProgress, width = 24): string {
  const filled = progress.total ? Math.round((progress.done / progress.total) * width) : width;
  const bar = `${'#'.repeat(filled)}${'·'.repeat(width - filled)}`;
  return `[${bar}] ${progress.done}/${progress.total} · ${progress.passed} passed · last: ${progress.caseId} ${progress.pass ? '✓' : '✗'}`;
}

export interface RunSuiteOptions extends Partial<RunChecksOptions> {
  /** Runs the agent on one case (the CLI builds an Agent; tests pass a function). */
  runCase: (testCase: EvalCase, context: { repeat: number }) => Promise<RunResult>;
  /** Runs per case. Default 1. */
  repeat?: number;
  /** Runs at once. Default 4. */
  concurrency?: number;
  onProgress?: (progress: EvalProgress) => void;
  /** Shown in the report. */
  model?: string;
  /** Where the experiment behind the report is kept (the CLI keeps it in the data dir). Default: in memory. */
  store?: ExperimentStore;
  /** The experiment's id in the store. */
  experimentId?: string;
}

/**
 * The suite's checks as one scorer: each case's own checks run on its result; the score is the share
 * passed, and every check's verdict is kept in the score's metadata.
 */
export function suiteChecksScorer(cases: readonly EvalCase[], checkOptions: RunChecksOptions): Scorer {
  const byId = new Map(cases.map((c) => [c.id, c]));
  return createScorer<unknown, unknown>({
    name: 'checks',
    score: async ({ run, metadata }) => {
      const testCase = byId.get(String(metadata?.caseId)) as EvalCase;
      const checks = await runChecks(testCase, run as RunResult, checkOptions);
      const failed = checks.find((c) => !c.pass);
      return {
        score: checks.filter((c) => c.pass).length / checks.length,
        pass: !failed,
        reason: failed ? `${failed.check}: ${failed.message ?? 'failed'}` : undefined,
        metadata: { checks },
      };
    },
  });
}

/**
 * Runs every case of a YAML suite (`repeat` times each, `concurrency` at once) as an experiment whose one
 * scorer is the suite's checks, and folds the trials into an `EvalReport`. A run that throws counts as
 * failed, with the error kept.
 *
 * @example
 * const report = await runSuite(suite, { runCase: (c) => new Agent({ model, tools }).run(c.input) });
 * console.log(formatEvalTable(report));
 */
export async function runSuite(suite: EvalSuite, options: RunSuiteOptions): Promise<EvalReport> {
  const repeat = Math.max(1, options.repeat ?? 1);
  const checkOptions: RunChecksOptions = {
    baseDir: options.baseDir ?? process.cwd(),
    loadPredicate: options.loadPredicate,
  };
  const cases = new Map(suite.cases.map((c) => [c.id, c]));
  const runs: EvalRunReport[][] = suite.cases.map(() => []);
  const started = Date.now();
  const experiment = await runExperiment({
    name: suite.name,
    id: options.experimentId,
    data: suite.cases.map((c) => ({ id: c.id, input: c.input, metadata: { caseId: c.id } })),
    task: (_input, ctx) => options.runCase(cases.get(ctx.caseId) as EvalCase, { repeat: ctx.trial }),
    scorers: [suiteChecksScorer(suite.cases, checkOptions)],
    trials: repeat,
    concurrency: options.concurrency ?? 4,
    store: options.store,
    onProgress: (p) => {
      runs[p.trial.caseIndex].push(toRunReport(p.trial, cases.get(p.caseId) as EvalCase));
      options.onProgress?.({ done: p.done, total: p.total, passed: p.passed, caseId: p.caseId, pass: p.pass });
    },
  });
  const all = runs.flat();
  const s = experiment.summary;
  return {
    suite: suite.name,
    model: options.model,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    repeat,
    cases: suite.cases.map((c, i) =>
      caseReport(
        c.id,
        c.input,
        runs[i].sort((a, b) => a.repeat - b.repeat),
      ),
    ),
    runs: all.length,
    passed: s.passed,
    passRate: s.passRate,
    promptTokens: s.promptTokens,
    completionTokens: s.completionTokens,
    costUsd: s.costUsd,
  };
}

function toRunReport(trial: TrialRecord, testCase: EvalCase): EvalRunReport {
  const checks = (trial.scores[0]?.metadata?.checks as CheckResult[] | undefined) ?? [];
  const failedRun = trial.status === 'error';
  const report: EvalRunReport = {
    repeat: trial.trial,
    pass: trial.pass,
    status: trial.status,
    output: trial.output,
    steps: trial.steps,
    llmCalls: trial.llmCalls,
    promptTokens: trial.promptTokens,
    completionTokens: trial.completionTokens,
    costUsd: trial.costUsd,
    durationMs: Math.round(trial.latencyMs),
    checks: failedRun ? testCase.checks.map(() => ({ check: 'run', pass: false, message: trial.error })) : checks,
  };
  if (failedRun) report.error = trial.error;
  return report;
}
