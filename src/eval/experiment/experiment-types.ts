import type { RunStatus } from '../../core/index.js';
import type { ScoreResult } from '../scorers/scorer.js';
import type { Estimate } from './stats.js';

/** One trial of one case: what the task did and how each scorer scored it. */
export interface TrialRecord {
  caseId: string;
  /** The case's position in the data (0-based). */
  caseIndex: number;
  /** 0-based trial number. */
  trial: number;
  input: unknown;
  expected?: unknown;
  output: string;
  /** The run's status, or `error` when the task threw. */
  status: RunStatus | 'error';
  /** Why the task threw. */
  error?: string;
  /** Every scorer passed and the task did not throw. */
  pass: boolean;
  scores: ScoreResult[];
  steps: number;
  llmCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** The task's cost in US dollars, when known. */
  costUsd?: number;
  /** What scoring cost (judges), apart from the task's. */
  scorerCostUsd?: number;
  latencyMs: number;
  /** The run behind the trial (its trace and stored run carry this id). */
  runId?: string;
}

/** What an experiment is: its name, when it started, how many cases and trials, which scorers. */
export interface ExperimentMeta {
  id: string;
  name: string;
  startedAt: string;
  status: 'running' | 'done';
  cases: number;
  trials: number;
  scorers: string[];
  /** Anything the caller wants kept with it (a git commit, the model, the agent's config). */
  metadata?: Record<string, unknown>;
}

/** One scorer's summary: its mean over cases with a bootstrap 95% interval, pass rate and errors. */
export interface ScorerSummary extends Estimate {
  passRate: number;
  /** Trials where the scorer itself failed (a judge reply it could not read). */
  errors: number;
}

/** The experiment's totals and statistics. */
export interface ExperimentSummary {
  cases: number;
  trials: number;
  passed: number;
  /** Passed trials / all trials. */
  passRate: number;
  /** pass@k for k = 1..trials, averaged over cases (the unbiased estimator). */
  passAtK: Record<number, number>;
  /** pass^k for k = 1..trials (τ-bench: all k trials pass), averaged over cases. */
  passHatK: Record<number, number>;
  scorers: Record<string, ScorerSummary>;
  /** Trials whose task threw. */
  errors: number;
  steps: number;
  llmCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** The task's total cost; unset when a trial that used tokens had no known price. */
  costUsd?: number;
  scorerCostUsd: number;
  meanLatencyMs: number;
  p95LatencyMs: number;
  durationMs: number;
}

/**
 * What `runExperiment` returns: the experiment, its summary, and its trials, read from its store each time
 * they are iterated (case by case, trial by trial; a store the experiment opened from a path is opened
 * again to read them). `trials` is not enumerable: JSON and spreads of the experiment leave it out.
 * It is what `compareExperiments` and `writeExperimentJson` take.
 */
export interface ExperimentResult extends Experiment {
  readonly trials: AsyncIterable<TrialRecord>;
}

/** A finished (or resumed) experiment: what it was, and its summary. The trials are in its store. */
export interface Experiment {
  meta: ExperimentMeta;
  summary: ExperimentSummary;
}

/**
 * Where experiments and their trials are kept, one trial at a time as it finishes, so an experiment of
 * any size runs in bounded memory and a killed one resumes. SQLite (`SqliteExperimentStore`) and in memory.
 */
export interface ExperimentStore {
  createExperiment(meta: ExperimentMeta): Promise<void>;
  getExperiment(id: string): Promise<Experiment | { meta: ExperimentMeta; summary?: undefined } | undefined>;
  saveTrial(experimentId: string, trial: TrialRecord): Promise<void>;
  /** The `caseIndex:trial` keys already stored (what a resume skips). */
  finishedTrials(experimentId: string): Promise<Set<string>>;
  /** Every trial, ordered by case then trial, read in pages. */
  trials(experimentId: string): AsyncIterable<TrialRecord>;
  finishExperiment(experimentId: string, summary: ExperimentSummary): Promise<void>;
  /** Experiments, newest first. */
  listExperiments(limit?: number): Promise<ExperimentMeta[]>;
  close?(): Promise<void>;
}

export const trialKey = (caseIndex: number, trial: number) => `${caseIndex}:${trial}`;
