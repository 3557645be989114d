import { errorMessage, type RunStatus, type RunUsage, type Step } from '../../core/index.js';

/**
 * What a scorer reads of a run: the parts of a `RunResult` that a live run, a stored run and a trace file
 * all have. A live `RunResult` is one; `runFromTrace` and the CLI's stored-run reader build one offline.
 */
export interface RunLike {
  runId?: string;
  status: RunStatus;
  output: string;
  /** Each step's calls as they ran, and (from a live run) the native calls exactly as the model sent them. */
  steps: readonly (Pick<Step, 'kind' | 'toolCalls'> & Partial<Pick<Step, 'rawToolCalls'>>)[];
  usage: RunUsage;
  durationMs: number;
  error?: { code: string; message: string };
}

/** What every scorer is given: one case's input, expected value and metadata, and what the task answered. */
export interface ScorerInput<Input = unknown, Expected = unknown> {
  input: Input;
  /** The answer text. */
  output: string;
  expected?: Expected;
  metadata?: Record<string, unknown>;
  /** The run behind the answer (absent when a task returned a bare string). */
  run?: RunLike;
}

/** A scorer's verdict: a score in 0..1, whether it passes (default: score is 1), and why. */
export interface Score {
  score: number;
  pass?: boolean;
  reason?: string;
  /** What scoring itself cost (an LLM judge's calls), kept apart from the task's cost. */
  costUsd?: number;
  /** Tokens scoring itself used. */
  tokens?: number;
  /** Structured details worth keeping with the score (each check of a YAML suite, a judge's raw verdict). */
  metadata?: Record<string, unknown>;
}

/** A named scoring function, sync or async. */
export interface Scorer<Input = unknown, Expected = unknown> {
  readonly name: string;
  score(input: ScorerInput<Input, Expected>): Score | Promise<Score>;
}

/** One scorer's verdict as an experiment stores it. `error` is set when the scorer itself failed (score 0, not passed). */
export interface ScoreResult {
  name: string;
  score: number;
  pass: boolean;
  reason?: string;
  error?: string;
  costUsd?: number;
  tokens?: number;
  metadata?: Record<string, unknown>;
}

/**
 * Makes a scorer from a name and a function returning `{ score, pass?, reason? }` (or a bare number).
 *
 * @example
 * const short = createScorer({ name: 'short', score: ({ output }) => ({ score: output.length < 200 ? 1 : 0 }) });
 */
export function createScorer<Input = unknown, Expected = unknown>(definition: {
  name: string;
  score: (input: ScorerInput<Input, Expected>) => Score | number | Promise<Score | number>;
}): Scorer<Input, Expected> {
  const { name, score } = definition;
  const asScore = (value: Score | number): Score => (typeof value === 'number' ? { score: value } : value);
  return {
    name,
    // A synchronous function stays synchronous, so an experiment scores it without a promise per call.
    score(input) {
      const value = score(input);
      return isPromise(value) ? value.then(asScore) : asScore(value);
    },
  };
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}

/**
 * Runs one scorer and never throws: a scorer that throws, returns a score outside 0..1 or a non-number
 * becomes a `ScoreResult` with `error` (score 0, failed), so one bad scorer never ends an experiment.
 */
export async function applyScorer(scorer: Scorer, input: ScorerInput): Promise<ScoreResult> {
  return scoreOne(scorer, input);
}

/** Runs every scorer on one input, in order. */
export async function applyScorers(scorers: readonly Scorer[], input: ScorerInput): Promise<ScoreResult[]> {
  return scoreAll(scorers, input);
}

/**
 * `applyScorer` without a promise when the scorer answers synchronously (every deterministic scorer
 * does): the verdict, or a promise of it for an async scorer (a judge).
 */
export function scoreOne(scorer: Scorer, input: ScorerInput): ScoreResult | Promise<ScoreResult> {
  let verdict: Score | Promise<Score>;
  try {
    verdict = scorer.score(input);
  } catch (error) {
    return failedScore(scorer, error);
  }
  if (isPromise(verdict)) {
    return verdict.then(
      (value) => toScoreResult(scorer, value),
      (error: unknown) => failedScore(scorer, error),
    );
  }
  return toScoreResult(scorer, verdict);
}

/** `applyScorers` without a promise when every scorer answers synchronously. */
export function scoreAll(scorers: readonly Scorer[], input: ScorerInput): ScoreResult[] | Promise<ScoreResult[]> {
  // Made its length at once: an empty array's first push makes room for 16 (a runExperiment case's
  // largest allocation after the run's own, and garbage collections there cost in proportion).
  const out = new Array<ScoreResult>(scorers.length);
  for (let i = 0; i < scorers.length; i++) {
    const result = scoreOne(scorers[i], input);
    if (isPromise(result)) return finishAsync(scorers, input, out, i, result);
    out[i] = result;
  }
  return out;
}

/** The rest of `scoreAll` once one scorer answered with a promise: still one scorer at a time, in order. */
async function finishAsync(
  scorers: readonly Scorer[],
  input: ScorerInput,
  out: ScoreResult[],
  from: number,
  pending: Promise<ScoreResult>,
): Promise<ScoreResult[]> {
  out[from] = await pending;
  for (let i = from + 1; i < scorers.length; i++) out[i] = await scoreOne(scorers[i], input);
  return out;
}

function failedScore(scorer: Scorer, error: unknown): ScoreResult {
  return { name: scorer.name, score: 0, pass: false, error: errorMessage(error) };
}

function toScoreResult(scorer: Scorer, verdict: Score): ScoreResult {
  // A bare number is a score, from a scorer written by hand as from `createScorer`.
  if (typeof verdict === 'number') verdict = { score: verdict };
  const { score, pass, reason, costUsd, tokens, metadata } = verdict ?? ({} as Score);
  if (typeof score !== 'number' || !(score >= 0 && score <= 1)) {
    return { name: scorer.name, score: 0, pass: false, error: `score must be a number in 0..1 (got ${String(score)})` };
  }
  const result: ScoreResult = { name: scorer.name, score, pass: pass ?? score >= 1 };
  if (reason !== undefined) result.reason = reason;
  if (costUsd !== undefined) result.costUsd = costUsd;
  if (tokens !== undefined) result.tokens = tokens;
  if (metadata !== undefined) result.metadata = metadata;
  return result;
}

/** Every tool call a run made, in order, as `{ name, arguments }`. */
export function callsOf(run: RunLike | undefined): { name: string; arguments: unknown }[] {
  if (!run) return [];
  return run.steps.flatMap((step) => step.toolCalls.map((call) => ({ name: call.name, arguments: call.input })));
}

/** `"text"` cut to 80 characters on one line, for reasons. */
export function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > 80 ? `${flat.slice(0, 79)}…` : flat);
}
