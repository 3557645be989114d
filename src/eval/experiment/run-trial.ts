import type { CacheStore } from '../../cache/index.js';
import { errorMessage, stableJson } from '../../core/index.js';
import type { EvalItem } from '../load-dataset.js';
import { type RunLike, type ScoreResult, type Scorer, scoreAll } from '../scorers/scorer.js';
import type { TrialRecord } from './experiment-types.js';

/** Anything with an Agent's `run(input)`: a thinkflow `Agent`, or your own wrapper around one. */
export interface AgentLike {
  run(input: string, options?: { signal?: AbortSignal }): Promise<RunLike>;
}

/** What a task function is given besides the input. */
export interface TaskContext {
  caseId: string;
  trial: number;
  expected?: unknown;
  metadata?: Record<string, unknown>;
  signal?: AbortSignal;
  /** The experiment's reply cache (`cache` option): wrap the task's model with `cachedModel(model, { store: ctx.cache })`. */
  cache?: CacheStore;
}

/** A function task: returns a run (a thinkflow `RunResult`) or just the answer text. */
export type TaskFunction<Input = unknown> = (
  input: Input,
  ctx: TaskContext,
) => Promise<RunLike | string> | RunLike | string;

/** What an experiment runs per case: an Agent, or a function. (`thinkflow eval run` also takes an agent's name from the config.) */
export type Task<Input = unknown> = AgentLike | TaskFunction<Input>;

/**
 * A case as given (a dataset row; its id defaults to its 1-based position). A trial reads it with its
 * position rather than from an item made per trial: that object was a case's garbage, and collections
 * beside an agent's runs cost in proportion to it.
 */
export type CaseRow = Omit<EvalItem, 'id'> & { id?: string };

/** The case's id: its row's, else its 1-based position. */
export const caseIdOf = (row: CaseRow, index: number): string => row.id ?? String(index + 1);

/**
 * Calls the task for one trial: an Agent's `run` (a promise), or a function task, whose value may come
 * without a promise. The function task's context is made for it alone; an Agent gets the plain
 * `agent.run(input)` without a signal (the agent copies a given options object).
 */
export function callTask(
  task: Task,
  row: CaseRow,
  index: number,
  trial: number,
  context: { signal?: AbortSignal; cache?: CacheStore },
): Promise<RunLike | string> | RunLike | string {
  if (typeof task === 'function') {
    return task(row.input, {
      caseId: caseIdOf(row, index),
      trial,
      expected: row.expected,
      metadata: row.metadata,
      signal: context.signal,
      cache: context.cache,
    });
  }
  const text = typeof row.input === 'string' ? row.input : stableJson(row.input);
  return context.signal ? task.run(text, { signal: context.signal }) : task.run(text);
}

/** The record of a trial whose task threw: failed, each scorer with the task's error. */
export function failedTrial(
  scorers: readonly Scorer[],
  row: CaseRow,
  index: number,
  trial: number,
  error: unknown,
  latencyMs: number,
): TrialRecord {
  const message = errorMessage(error);
  const scores = scorers.map((s) => ({ name: s.name, score: 0, pass: false, error: `the task failed: ${message}` }));
  return trialRecord(row, index, trial, undefined, '', scores, latencyMs, message);
}

/**
 * The record of a trial whose task answered `value` (it started at `started`, a `performance.now()`):
 * scored by every scorer, without a promise when they all answer synchronously. The run is read for its
 * numbers and scored, then dropped: only the record (answer, scores, counts) leaves, so steps never pile
 * up across cases.
 *
 * Runs once per case, so it stays lean: the record is one object literal (on Node 20's V8 an object spread
 * followed by more fields measured 20 to 30 times a plain literal, microseconds a call).
 */
export function scoredTrial(
  scorers: readonly Scorer[],
  row: CaseRow,
  index: number,
  trial: number,
  value: RunLike | string,
  started: number,
): TrialRecord | Promise<TrialRecord> {
  if (typeof value !== 'string' && typeof value?.output !== 'string') {
    return failedTrial(scorers, row, index, trial, new Error(notAnAnswer(value)), performance.now() - started);
  }
  const run = typeof value === 'string' ? undefined : value;
  // A run's own duration when it has one; the clock is read only when it has not.
  const latencyMs = run?.durationMs ?? performance.now() - started;
  const output = typeof value === 'string' ? value : value.output;
  const scored = scoreAll(scorers, {
    input: row.input,
    output,
    expected: row.expected,
    metadata: row.metadata,
    run,
  });
  if (!Array.isArray(scored)) {
    return scored.then((scores) => trialRecord(row, index, trial, run, output, scores, latencyMs));
  }
  return trialRecord(row, index, trial, run, output, scored, latencyMs);
}

/**
 * Why a task's answer is neither its text nor a run (an object with an `output` text): what it was,
 * and what to return instead. Such an answer fails its trial with this message; it never ends the experiment.
 */
function notAnAnswer(value: unknown): string {
  const hint = 'a task returns the answer text or a run with an `output` text (`return await agent.run(input)`)';
  if (value === undefined || value === null) return `the task returned ${value}: ${hint}.`;
  if (typeof value === 'object' && typeof (value as Partial<AgentLike>).run === 'function') {
    return 'the task returned an agent rather than its run: pass the agent itself as `task`, or return `await agent.run(input)` from the function.';
  }
  const kind = Array.isArray(value)
    ? 'an array'
    : typeof value === 'object'
      ? 'an object without an `output` text'
      : `a ${typeof value}`;
  let shown: string;
  try {
    shown = typeof value === 'object' ? (JSON.stringify(value) ?? String(value)) : String(value);
  } catch {
    shown = String(value);
  }
  if (shown.length > 80) shown = `${shown.slice(0, 79)}…`;
  return `the task returned ${kind} (${shown}): ${hint}; for a value of your own, return its text (\`JSON.stringify(value)\`).`;
}

/**
 * A trial's record, made in one literal of its final shape (every optional field in it, unset ones
 * undefined): fields added after a literal cost a map transition each and, past the literal's own slots,
 * a second object to hold them, and records of two shapes make every reader of them slower.
 */
function trialRecord(
  row: CaseRow,
  index: number,
  trial: number,
  run: RunLike | undefined,
  output: string,
  scores: ScoreResult[],
  latencyMs: number,
  taskError?: string,
): TrialRecord {
  let pass = taskError === undefined;
  let scorerCost = 0;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i];
    if (!s.pass) pass = false;
    if (s.costUsd) scorerCost += s.costUsd;
  }
  return {
    caseId: caseIdOf(row, index),
    caseIndex: index,
    trial,
    input: row.input,
    expected: row.expected,
    output,
    status: taskError === undefined ? (run?.status ?? 'done') : 'error',
    error: taskError ?? run?.error?.message,
    pass,
    scores,
    // A run of your own may leave its steps or usage out: read as none.
    steps: run?.steps?.length ?? 0,
    llmCalls: run?.usage?.llmCalls ?? 0,
    promptTokens: run?.usage?.promptTokens ?? 0,
    completionTokens: run?.usage?.completionTokens ?? 0,
    costUsd: run?.usage?.costUsd,
    scorerCostUsd: scorerCost || undefined,
    latencyMs,
    runId: run?.runId || undefined,
  };
}

/** Runs one trial of one case and scores it (what `runExperiment` does per trial). */
export async function runTrial(
  task: Task,
  scorers: readonly Scorer[],
  item: EvalItem & { index: number },
  trial: number,
  context: { signal?: AbortSignal; cache?: CacheStore } = {},
): Promise<TrialRecord> {
  const started = performance.now();
  let value: RunLike | string;
  try {
    value = await callTask(task, item, item.index, trial, context);
  } catch (error) {
    return failedTrial(scorers, item, item.index, trial, error, performance.now() - started);
  }
  return scoredTrial(scorers, item, item.index, trial, value, started);
}
