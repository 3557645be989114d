import type { RunUsage, Step } from '../../core/index.js';
import type { StopReason } from './stop-reason.js';

/** What a stop condition sees of the run after each step. */
export interface StopState {
  /** The steps so far; the last is the step just taken. */
  readonly steps: readonly Step[];
  readonly usage: RunUsage;
  /** Milliseconds since the run started. */
  readonly elapsedMs: number;
  /** The run's cost so far in US dollars, when its model's price is known. */
  readonly costUsd: number | undefined;
}

/**
 * The run ends `done` after this step, with `output` as its answer (`calledTool`: the tool's result),
 * as the AI SDK's `stopWhen: hasToolCall(name)` ends its loop after the step that called it.
 */
export interface StopDone {
  status: 'done';
  code: string;
  output: string;
}

/**
 * A stop condition, checked after each step (`new Agent({ stopWhen: [maxSteps(10), costOver(0.5)] })`):
 * a reason to stop the run, `{ status: 'done', output }` to end it with an answer, or undefined to go on.
 */
export type StopCondition = ((state: StopState) => StopReason | StopDone | undefined) & { readonly maxSteps?: number };

/**
 * Stops after `n` steps, status `max_steps` (a last model call then asks for the best answer, as with
 * the `maxSteps` option, which is this condition).
 */
export function maxSteps(n: number): StopCondition {
  const condition = (state: StopState) =>
    state.steps.length < n
      ? undefined
      : {
          status: 'max_steps' as const,
          code: 'max_steps',
          message: `The run reached maxSteps (${n}) without a final answer.`,
        };
  return Object.assign(condition, { maxSteps: n });
}

/** Ends the run `done` after a step that called `tool` (and it succeeded): its result is the answer. */
export function calledTool(tool: string): StopCondition {
  return (state) => {
    const call = state.steps.at(-1)?.toolCalls.find((c) => c.ok && (c.tool ?? c.name) === tool);
    return call ? { status: 'done', code: 'called_tool', output: call.output } : undefined;
  };
}

/** Stops once the run has used `n` tokens (prompt + completion), status `budget_exceeded` (the `budget.maxTotalTokens` option). */
export function tokensOver(n: number): StopCondition {
  return ({ usage }) => {
    const tokens = usage.promptTokens + usage.completionTokens;
    if (tokens < n) return undefined;
    return {
      status: 'budget_exceeded',
      code: 'token_budget',
      message: `The run used ${tokens} tokens; its budget is ${n}.`,
    };
  };
}

/** Stops once the run has taken `ms` milliseconds, checked after each step, status `budget_exceeded` (`budget.maxDurationMs` also cuts a call short). */
export function durationOver(ms: number): StopCondition {
  return ({ elapsedMs }) =>
    elapsedMs < ms
      ? undefined
      : {
          status: 'budget_exceeded',
          code: 'time_budget',
          message: `The run took ${elapsedMs} ms; its budget is ${ms} ms.`,
        };
}

/** Stops once the run has cost `usd` US dollars, status `budget_exceeded`; never for a model whose price is unknown. */
export function costOver(usd: number): StopCondition {
  return ({ costUsd }) =>
    costUsd === undefined || costUsd < usd
      ? undefined
      : {
          status: 'budget_exceeded',
          code: 'cost_budget',
          message: `The run cost $${costUsd.toFixed(4)}; its budget is $${usd}.`,
        };
}

/** The step limit the conditions set (the lowest `maxSteps`), if any. */
export function stepLimitOf(conditions: readonly StopCondition[] | undefined): number | undefined {
  let limit: number | undefined;
  for (const c of conditions ?? []) if (c.maxSteps !== undefined) limit = Math.min(limit ?? c.maxSteps, c.maxSteps);
  return limit;
}

/** The first condition that says stop, in the order given. */
export function checkStopConditions(
  conditions: readonly StopCondition[],
  state: StopState,
): StopReason | StopDone | undefined {
  for (const condition of conditions) {
    const stop = condition(state);
    if (stop) return stop;
  }
  return undefined;
}
