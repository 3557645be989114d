import { errorMessage, type RunResult } from '../core/index.js';
import { caseReport, type EvalReport, type EvalRunReport } from './eval-report.js';
import type { EvalCase, EvalSuite } from './eval-suite.js';
import { type RunChecksOptions, runChecks } from './run-checks.js';

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
}

/**
 * Runs every case of a suite (`repeat` times each, `concurrency` at once), checks each result and
 * folds everything into an `EvalReport`. A run that throws counts as failed, with the error kept.
 *
 * @example
 * const report = await runSuite(suite, { runCase: (c) => new Agent({ model, tools }).run(c.input) });
 * console.log(formatEvalTable(report));
 */
export async function runSuite(suite: EvalSuite, options: RunSuiteOptions): Promise<EvalReport> {
  const repeat = Math.max(1, options.repeat ?? 1);
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const checkOptions: RunChecksOptions = {
    baseDir: options.baseDir ?? process.cwd(),
    loadPredicate: options.loadPredicate,
  };
  const jobs = suite.cases.flatMap((testCase, index) =>
    Array.from({ length: repeat }, (_, r) => ({ testCase, index, repeat: r })),
  );
  const results: EvalRunReport[][] = suite.cases.map(() => []);
  const started = Date.now();
  let next = 0;
  let done = 0;
  let passed = 0;

  async function worker(): Promise<void> {
    while (next < jobs.length) {
      const job = jobs[next++];
      const run = await runOne(job.testCase, job.repeat, options, checkOptions);
      results[job.index].push(run);
      done++;
      if (run.pass) passed++;
      options.onProgress?.({ done, total: jobs.length, passed, caseId: job.testCase.id, pass: run.pass });
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));

  const cases = suite.cases.map((c, i) =>
    caseReport(
      c.id,
      c.input,
      results[i].sort((a, b) => a.repeat - b.repeat),
    ),
  );
  const all = results.flat();
  // A total is only a total if every run that used tokens has a price: otherwise it is unknown, not a partial sum.
  const priced = all.every((r) => r.costUsd !== undefined || r.promptTokens + r.completionTokens === 0);
  const costs = all.map((r) => r.costUsd ?? 0);
  return {
    suite: suite.name,
    model: options.model,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    repeat,
    cases,
    runs: all.length,
    passed,
    passRate: all.length ? passed / all.length : 0,
    promptTokens: all.reduce((s, r) => s + r.promptTokens, 0),
    completionTokens: all.reduce((s, r) => s + r.completionTokens, 0),
    costUsd: priced && all.some((r) => r.costUsd !== undefined) ? costs.reduce((s, c) => s + c, 0) : undefined,
  };
}

async function runOne(
  testCase: EvalCase,
  repeat: number,
  options: RunSuiteOptions,
  checkOptions: RunChecksOptions,
): Promise<EvalRunReport> {
  const started = Date.now();
  let result: RunResult;
  try {
    result = await options.runCase(testCase, { repeat });
  } catch (error) {
    const message = errorMessage(error);
    return {
      repeat,
      pass: false,
      status: 'error',
      output: '',
      steps: 0,
      llmCalls: 0,
      promptTokens: 0,
      completionTokens: 0,
      durationMs: Date.now() - started,
      checks: testCase.checks.map(() => ({ check: 'run', pass: false, message })),
      error: message,
    };
  }
  const checks = await runChecks(testCase, result, checkOptions);
  return {
    repeat,
    pass: checks.every((c) => c.pass),
    status: result.status,
    output: result.output,
    steps: result.steps.length,
    llmCalls: result.usage.llmCalls,
    promptTokens: result.usage.promptTokens,
    completionTokens: result.usage.completionTokens,
    costUsd: result.usage.costUsd,
    durationMs: result.durationMs,
    checks,
  };
}
