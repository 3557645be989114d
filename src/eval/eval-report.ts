import type { RunStatus } from '../core/index.js';
import type { CheckResult } from './run-checks.js';

/** One run of one case. */
export interface EvalRunReport {
  /** 0-based repetition index. */
  repeat: number;
  pass: boolean;
  status: RunStatus | 'error';
  output: string;
  steps: number;
  llmCalls: number;
  promptTokens: number;
  completionTokens: number;
  costUsd?: number;
  durationMs: number;
  checks: CheckResult[];
  /** Set when the run itself could not happen (bad model spec, a thrown error). */
  error?: string;
}

/** Every run of one case, with its averages. */
export interface EvalCaseReport {
  id: string;
  input: string;
  runs: EvalRunReport[];
  passed: number;
  passRate: number;
  meanSteps: number;
  meanLlmCalls: number;
  meanTokens: number;
  meanDurationMs: number;
}

/** The result of a whole suite. */
export interface EvalReport {
  suite: string;
  model?: string;
  startedAt: string;
  durationMs: number;
  repeat: number;
  cases: EvalCaseReport[];
  runs: number;
  passed: number;
  /** Passed runs / all runs, 0..1. */
  passRate: number;
  promptTokens: number;
  completionTokens: number;
  /** Total cost in US dollars; unset when a run that used tokens has no known price (never a partial sum). */
  costUsd?: number;
}

/** Folds a case's runs into its averages. */
export function caseReport(id: string, input: string, runs: EvalRunReport[]): EvalCaseReport {
  const mean = (pick: (r: EvalRunReport) => number) =>
    runs.length ? runs.reduce((s, r) => s + pick(r), 0) / runs.length : 0;
  const passed = runs.filter((r) => r.pass).length;
  return {
    id,
    input,
    runs,
    passed,
    passRate: runs.length ? passed / runs.length : 0,
    meanSteps: mean((r) => r.steps),
    meanLlmCalls: mean((r) => r.llmCalls),
    meanTokens: mean((r) => r.promptTokens + r.completionTokens),
    meanDurationMs: mean((r) => r.durationMs),
  };
}
