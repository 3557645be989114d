import type { ReadToolCall, Step, ToolCallRecord } from '../../core/index.js';
import {
  createToolExecutor,
  type ExecuteOptions,
  type ParentRun,
  type ToolEndRecord,
  type ToolExecutor,
  type ToolRegistry,
} from '../../tools/index.js';
import type { StopReason } from '../guards/index.js';
import type { AgentOptions, RunContext, RunOptions, RunTools } from '../run/index.js';
import { countCall, event, neverSignal, toolEndEvent } from '../run/index.js';
import { guardToolCalls } from './apply-guardrails.js';
import { createNestedCalls } from './nested-tool-calls.js';
import { observationLimitFor, observationTokensFor } from './observation-limit-for.js';
import { appendWarning, joinOutputs, skippedCall } from './step-records.js';

/** The run's tools: one executor per run, over the run's own copy of the agent's registry. */
export function createRunTools(
  registry: ToolRegistry,
  options: AgentOptions,
  run: Pick<RunOptions, 'tools' | 'approve' | 'ask' | 'journal'> & { runId: string },
  parent?: ParentRun,
): RunTools {
  const forked = registry.fork();
  for (const tool of run.tools ?? []) forked.register(tool);
  const executor = createToolExecutor({
    registry: forked,
    runId: run.runId,
    concurrency: options.toolConcurrency ?? 8,
    maxFailures: options.maxToolFailures,
    observationLimit: observationLimitFor(options),
    observationTokens: observationTokensFor(options),
    // A cut result is kept whole for `recall_result`, which compaction offers.
    recallCut: options.context?.compaction !== false,
    approve: run.approve ?? options.approve,
    ask: run.ask,
    parent,
    // Under a durable engine each call is a step of its journal (src/tools/journaled-call.ts).
    journal: run.journal,
  });
  // Code mode's own tool lists get an executor of their own, with the same options, made once per run.
  let others: WeakMap<ToolRegistry, ToolExecutor> | undefined;
  const executorFor = (target: ToolRegistry): ToolExecutor => {
    if (target === forked) return executor;
    others ??= new WeakMap();
    let found = others.get(target);
    if (!found) {
      found = createToolExecutor({
        registry: target.fork(),
        runId: run.runId,
        concurrency: options.toolConcurrency ?? 8,
        maxFailures: options.maxToolFailures,
        observationLimit: observationLimitFor(options),
        observationTokens: observationTokensFor(options),
        approve: run.approve ?? options.approve,
        ask: run.ask,
        parent,
        journal: run.journal,
      });
      others.set(target, found);
    }
    return found;
  };
  return { registry: forked, executor, executorFor };
}

type StepStop = StopReason | undefined;
type Warning = { callId?: string; text: string };

/**
 * The loop's `tool_calls` move: checks each call for repetition (a warning at the second identical
 * call, `loop_detected` at the third), writes the step as pending for durable runs, runs the calls,
 * checks for the same observation step after step, and fills in the step's records and observation.
 * A step whose calls all ended at once, in a run without checkpoints, comes back as it is, not as a
 * promise (one fewer per step; see docs/loop.md).
 */
export function runStepTools(ctx: RunContext, step: Step, calls: ReadToolCall[]): StepStop | Promise<StepStop> {
  let stop: StepStop;
  const warnings: Warning[] = [];
  for (const call of calls) {
    const seen = ctx.repetition.check(call.name, call.input);
    if (seen.warning) warnings.push({ callId: call.id, text: seen.warning });
    stop ??= seen.stop;
  }
  if (stop) {
    const message = stop.message;
    step.toolCalls = calls.map((c) => skippedCall(c, message));
    return observed(ctx, step, calls, stop);
  }
  if (ctx.checkpoints) return runSaved(ctx, step, calls, warnings);
  // afterCalls checks for a run a tool ended: one callback, not two, when the calls had to wait.
  const running = runCallsOnly(ctx, calls, step.index);
  return running instanceof Promise
    ? running.then((records) => afterCalls(ctx, { step, calls, records, warnings }))
    : afterCalls(ctx, { step, calls, records: running, warnings });
}

/** A durable run's step: written as pending before its calls run. */
async function runSaved(ctx: RunContext, step: Step, calls: ReadToolCall[], warnings: Warning[]): Promise<StepStop> {
  const { index, raw, thought } = step;
  await ctx.checkpoints!.saveStep(ctx.state, { index, raw, thought, calls, done: [] });
  const running = runStepCalls(ctx, calls, index);
  const records = running instanceof Promise ? await running : running;
  return afterCalls(ctx, { step, calls, records, warnings });
}

/** The step's records in, the warnings added, and the no-progress check. */
function afterCalls(
  ctx: RunContext,
  ran: { step: Step; calls: ReadToolCall[]; records: ToolCallRecord[]; warnings: Warning[] },
): StepStop {
  const { step, calls, records, warnings } = ran;
  step.toolCalls = failIfEnded(ctx, records);
  if (endedByTool(ctx, step)) return observed(ctx, step, calls, undefined);
  for (const warning of warnings) appendWarning(ctx, step, warning);
  const same = ctx.sameObservation.check(joinOutputs(records, false), calls);
  if (same.warning) appendWarning(ctx, step, { callId: records.at(-1)?.id, text: same.warning });
  return observed(ctx, step, calls, same.stop);
}

/** The step's observation, one per call in call order (labelled when several), and its event. */
function observed(ctx: RunContext, step: Step, calls: ReadToolCall[], stop: StepStop): StepStop {
  step.observation = joinOutputs(step.toolCalls, calls.length > 1);
  // A silent run builds no event (nor its fields): nobody would see it.
  if (!ctx.state.silent) ctx.emit(event(ctx.state, 'observation', { step: step.index, text: step.observation }));
  return stop;
}

/**
 * Checks a step's calls against the tool-call guardrails, then runs the allowed ones: one record per
 * call, in call order. A blocked call is written to the checkpoint as ended, so a resumed run never runs it.
 * Without guardrails the executor's records come back as they are: directly when no call had to wait
 * (a step of synchronous tools then costs no promise; see docs/loop.md for what that buys).
 */
export function runStepCalls(
  ctx: RunContext,
  calls: ReadToolCall[],
  step: number,
): ToolCallRecord[] | Promise<ToolCallRecord[]> {
  const records = runCallsOnly(ctx, calls, step);
  return records instanceof Promise ? records.then((r) => failIfEnded(ctx, r)) : failIfEnded(ctx, records);
}

/** `runStepCalls` without the check for a run a tool ended (its caller checks, in the same callback). */
function runCallsOnly(ctx: RunContext, calls: ReadToolCall[], step: number) {
  const guards = ctx.config.options.guardrails?.toolCall;
  return guards?.length ? runGuardedCalls(ctx, calls, step) : runTools(ctx, calls, step);
}

/** A tool that failed the run (a code-mode replay that diverged) fails it here, once the step's calls are done. */
function failIfEnded<T>(ctx: RunContext, records: T): T {
  const ending = ctx.ending;
  if (ending && 'error' in ending) throw ending.error;
  return records;
}

/**
 * True when a call ended the run with an answer (code mode's `final_answer`): the step keeps it as
 * its `answer`, and the `final` event goes out.
 */
export function endedByTool(ctx: RunContext, step: Step): boolean {
  const ending = ctx.ending;
  if (!ending || !('answer' in ending)) return false;
  ctx.ending = undefined;
  step.answer = ending.answer;
  ctx.emit(event(ctx.state, 'final', { step: step.index, output: ending.answer }));
  return true;
}

async function runGuardedCalls(ctx: RunContext, calls: ReadToolCall[], step: number): Promise<ToolCallRecord[]> {
  const guards = ctx.config.options.guardrails?.toolCall ?? [];
  const { allowed, blocked } = await guardToolCalls(ctx, guards, calls);
  for (const record of blocked) ctx.checkpoints?.callEnded(ctx.state, record);
  const ran = allowed.length ? await runTools(ctx, allowed, step) : [];
  // Records come back in call order; only blocked calls need putting back in place.
  if (!blocked.length) return ran;
  return calls.map((c) => ran.find((r) => r.id === c.id) ?? blocked.find((b) => b.id === c.id)!);
}

/**
 * Runs calls through the executor, emitting tool_start and tool_end as each one starts and ends,
 * counting each call in the run's stats and writing it to the run's checkpoint as it ends.
 */
function runTools(ctx: RunContext, calls: ReadToolCall[], step: number): ToolEndRecord[] | Promise<ToolEndRecord[]> {
  return ctx.config.tools.executor.executeNow(calls, callOptions(ctx, step));
}

/**
 * The executor's options for the calls of `step`. One object and its callbacks per run, not per step: a
 * run's steps, and so their calls, come one after another, and the callbacks read the step from it.
 */
function callOptions(ctx: RunContext, step: number): ExecuteOptions {
  const made = ctx.callHooks;
  if (made) {
    if (made.step !== step) {
      made.step = step;
      if (ctx.journal) made.options.journalKey = String(step);
    }
    return made.options;
  }
  const { state, emit, checkpoints, signal } = ctx;
  const { silent, stats } = state;
  const hooks = { step, options: {} as ExecuteOptions };
  hooks.options = {
    // A signal that can never fire is not passed on: listening to one costs about a µs per call.
    signal: signal === neverSignal() ? undefined : signal,
    onWait: checkpoints && ((callId) => checkpoints.callWaits(state, callId)),
    beforeStart: checkpoints && ((callId) => checkpoints.callStarts(state, callId)),
    nest: (callId) => createNestedCalls(ctx, hooks.step, callId),
    journalKey: ctx.journal && String(step),
    // Nobody listens: no start callback to build or call.
    onStart: silent
      ? undefined
      : (r) =>
          emit(event(state, 'tool_start', { step: hooks.step, callId: r.id, tool: r.tool ?? r.name, input: r.input })),
    onEnd: (r) => {
      countCall(r, stats);
      if (!silent) emit(toolEndEvent(state, hooks.step, r));
      // After tool_end, so a store that batches writes commits the event with the record. A call that
      // failed once the run was aborted (a shutdown) was cut short, not finished: a resume treats it as interrupted.
      if (checkpoints && !(signal.aborted && !r.ok)) checkpoints.callEnded(state, r);
    },
  };
  ctx.callHooks = hooks;
  return hooks.options;
}
