import {
  type AgentEvent,
  type EventOf,
  errorMessage,
  isThinkflowError,
  type Message,
  type ModelRequest,
  type ModelResponse,
  type RunResult,
  type Step,
  type ToolCallRecord,
} from '../core/index.js';
import type { Model } from '../llm/index.js';
import type { ContextWindow } from '../memory/index.js';
import type { Language, PromptContext, Protocol, ReadToolCall } from '../protocols/index.js';
import type { AgentOptions, Checkpoint, RunOptions } from './agent-options.js';
import { createStepProjector, type PromptHead, projectMessages } from './build-messages.js';
import { callModel } from './call-model.js';
import {
  budgetGuard,
  createRepetitionTracker,
  createSameObservationTracker,
  invalidStreakGuard,
  maxStepsGuard,
  type StopReason,
} from './guards/index.js';
import { decideNextStep } from './next-step.js';
import { addUsage, createRunState, event, type RunState } from './run-state.js';
import type { ToolRunner } from './tool-runner.js';

/** Everything one run needs, resolved from the agent's options and the run's options. */
export interface LoopConfig {
  model: Model;
  protocol: Protocol;
  tools: ToolRunner;
  prompt: PromptContext;
  language: Language;
  options: AgentOptions;
  run: RunOptions & { runId: string };
  /** Keeps each prompt within the token budget (absent when there is no budget). */
  context?: ContextWindow;
  /** Memories recalled into the system prompt before the run (for the `memory_recall` event). */
  recalled?: EventOf<'memory_recall'>['memories'];
  /** Called with the result before `run_end` (the agent stores episodes here); may emit events. */
  onFinish?: (result: RunResult, emit: (event: AgentEvent) => void, state: RunState) => Promise<void>;
}

const ABORTED: StopReason = { status: 'aborted', code: 'aborted', message: 'The run was aborted.' };

/**
 * The agent loop, top to bottom: build the prompt, call the model, read the reply, then either
 * finish or run the tools, record the observation, check the guards, repeat.
 * Every decision goes out through `emit` as an AgentEvent.
 */
export async function runLoop(
  input: string,
  config: LoopConfig,
  emit: (event: AgentEvent) => void,
): Promise<RunResult> {
  const { model, protocol, tools, options, run, language } = config;
  const maxSteps = options.maxSteps ?? 10;
  const budget = run.budget ?? options.budget;
  const state = createRunState(run.runId, input, run.parentRunId, run.resume);
  const project = createStepProjector(protocol, language);
  const repetition = createRepetitionTracker();
  const sameObservation = createSameObservationTracker(options.sameObservationLimit ?? 3);
  const abort = linkAbort(run.signal, budget?.maxDurationMs);
  const head: PromptHead = {
    system: { role: 'system', content: protocol.systemPrompt(config.prompt) },
    history: run.history ?? [],
    question: { role: 'user', content: input },
  };
  const requestTools = protocol.requestTools(config.prompt);

  emit(
    event(state, 'run_start', {
      input,
      agent: options.name,
      model: model.id,
      protocol: protocol.name,
      tools: tools.names(),
    }),
  );
  if (config.recalled?.length) emit(event(state, 'memory_recall', { memories: config.recalled }));

  let stop: StopReason | undefined;
  let final: { answer: string; object?: unknown } | undefined;
  try {
    if (run.resume?.pending) await finishPendingStep(run.resume.pending, state, config, abort.signal, emit, project);

    while (!stop && !final) {
      stop =
        (abort.signal.aborted ? abort.reason() : undefined) ??
        budgetGuard(state.usage, state.startedAt, budget) ??
        maxStepsGuard(state.steps.length, maxSteps);
      if (stop) break;

      // 1. Build the prompt from the protocol and the steps so far.
      const index = state.steps.length;
      emit(event(state, 'step_start', { step: index }));
      let messages = config.context
        ? await fitContext(config.context, head, state, index, project, abort.signal, emit)
        : projectMessages(head, state.steps, project);
      let stepModel = model;
      if (options.beforeStep) {
        const overrides = await options.beforeStep({ ...stateView(state, index, stepModel, messages) });
        stepModel = overrides?.model ?? stepModel;
        messages = overrides?.messages ?? messages;
      }
      await run.onCheckpoint?.(checkpointOf(state));

      // 2. Call the model.
      const response = await askModel(
        stepModel,
        { messages, tools: requestTools, signal: abort.signal },
        index,
        state,
        config,
        emit,
      );

      // 3. Read the reply into the next move.
      const next = decideNextStep(protocol.readReply(response), response.text, options.outputSchema);
      if (next.thought) emit(event(state, 'thought', { step: index, text: next.thought }));
      if (next.type !== 'retry_parse' && next.repaired) state.stats.repairedReplies += 1;
      const step: Step = {
        index,
        kind: 'final',
        raw: response.text,
        rawToolCalls: response.toolCalls,
        thought: next.thought,
        toolCalls: [],
        usage: response.usage,
      };

      // 4. Finish, correct, or run the tools.
      if (next.type === 'final') {
        state.invalidStreak = 0;
        step.answer = next.answer;
        final = { answer: next.answer, object: next.object };
        emit(event(state, 'final', { step: index, output: next.answer, object: next.object }));
      } else if (next.type === 'retry_parse') {
        state.stats.invalidReplies += 1;
        state.invalidStreak += 1;
        Object.assign(step, {
          kind: 'invalid',
          invalidReason: next.reason,
          observation: protocol.correction(next.reason, language),
        });
        emit(event(state, 'invalid_output', { step: index, reason: next.reason, raw: next.raw }));
        emit(event(state, 'observation', { step: index, text: step.observation ?? '' }));
        stop = invalidStreakGuard(state.invalidStreak, options.maxInvalidReplies ?? 3, next.reason);
      } else {
        state.invalidStreak = 0;
        step.kind = 'tool_calls';
        const warnings: { callId: string; text: string }[] = [];
        for (const call of next.calls) {
          const seen = repetition.check(call.name, call.input);
          if (seen.warning) warnings.push({ callId: call.id, text: seen.warning });
          stop ??= seen.stop;
        }
        if (stop) {
          step.toolCalls = next.calls.map((c) => skippedCall(c, stop?.message ?? ''));
        } else {
          await run.onCheckpoint?.({
            ...checkpointOf(state),
            pending: { index, raw: response.text, thought: next.thought, calls: next.calls, done: [] },
          });
          step.toolCalls = await runTools(next.calls, index, state, config, abort.signal, emit);
          for (const w of warnings) appendWarning(step, w.callId, w.text, state, emit);
          const observation = step.toolCalls.map((c) => c.output).join('\n');
          const same = sameObservation.check(observation);
          if (same.warning) appendWarning(step, step.toolCalls.at(-1)?.id, same.warning, state, emit);
          stop = same.stop;
        }
        step.observation = step.toolCalls
          .map((c) => (next.calls.length > 1 ? `[${c.name}] ${c.output}` : c.output))
          .join('\n');
        emit(event(state, 'observation', { step: index, text: step.observation }));
      }

      // 5. Record the step and check the guards again.
      state.steps.push(step);
      await options.afterStep?.(step, stateView(state, index, stepModel, messages));
      stop ??= budgetGuard(state.usage, state.startedAt, budget);
    }
  } catch (error) {
    stop = abort.signal.aborted ? (abort.reason() ?? ABORTED) : failure(error);
  } finally {
    abort.dispose();
  }

  let output = final?.answer ?? '';
  if (stop?.status === 'max_steps' && options.finalAnswerOnMaxSteps !== false) {
    output = await bestEffortAnswer(head, state, config, emit, project);
  }
  const result: RunResult = {
    runId: state.runId,
    status: stop ? stop.status : 'done',
    output,
    object: final?.object,
    steps: state.steps,
    usage: state.usage,
    stats: state.stats,
    durationMs: Date.now() - state.startedAt,
    error: stop ? { code: stop.code, message: stop.message } : undefined,
  };
  await config.onFinish?.(result, emit, state);
  emit(
    event(state, 'run_end', {
      status: result.status,
      output,
      usage: result.usage,
      durationMs: result.durationMs,
      error: result.error,
    }),
  );
  return result;
}

/** Fits the prompt into the token budget, emitting `context_summary` when older steps were folded. */
async function fitContext(
  context: ContextWindow,
  head: PromptHead,
  state: RunState,
  index: number,
  project: (step: Step) => Message[],
  signal: AbortSignal,
  emit: (event: AgentEvent) => void,
): Promise<Message[]> {
  const fit = await context.fit(
    { head: [head.system, head.question], history: head.history, groups: state.steps.map(project) },
    signal,
  );
  if (fit.summary) {
    emit(
      event(state, 'context_summary', {
        step: index,
        summary: fit.summary.text,
        droppedSteps: fit.summary.droppedGroups,
      }),
    );
  }
  if (fit.warning) emit(event(state, 'warning', { step: index, code: 'context', message: fit.warning }));
  return fit.messages;
}

/** Calls the model and emits the request, the streamed text and the response. */
async function askModel(
  model: Model,
  request: ModelRequest,
  step: number,
  state: RunState,
  config: LoopConfig,
  emit: (event: AgentEvent) => void,
): Promise<ModelResponse> {
  emit(event(state, 'model_request', { step, model: model.id, messages: request.messages, tools: request.tools }));
  const started = Date.now();
  const streaming = config.options.streaming ?? true;
  const response = await callModel(model, request, streaming, (text) =>
    emit(event(state, 'model_delta', { step, text })),
  );
  const cached = response.cached === true;
  addUsage(state, response.usage, cached);
  if (cached) emit(event(state, 'cache_hit', { step, key: response.cacheKey ?? '' }));
  emit(
    event(state, 'model_response', {
      step,
      text: response.text,
      toolCalls: response.toolCalls,
      usage: response.usage,
      ms: Date.now() - started,
      modelId: response.modelId,
      cached: cached || undefined,
    }),
  );
  return response;
}

/** Runs a step's tool calls, emitting tool_start and tool_end as each one starts and ends. */
async function runTools(
  calls: ReadToolCall[],
  step: number,
  state: RunState,
  config: LoopConfig,
  signal: AbortSignal,
  emit: (event: AgentEvent) => void,
): Promise<ToolCallRecord[]> {
  const records = await config.tools.run(calls, {
    signal,
    onStart: (call, tool, input) => emit(event(state, 'tool_start', { step, callId: call.id, tool, input })),
    onEnd: (r) =>
      emit(
        event(state, 'tool_end', {
          step,
          callId: r.id,
          tool: r.tool ?? r.name,
          ms: r.durationMs,
          ok: r.ok,
          output: r.output,
          error: r.error,
        }),
      ),
  });
  state.stats.toolCalls += records.length;
  state.stats.toolErrors += records.filter((r) => !r.ok).length;
  state.stats.retries += records.reduce((n, r) => n + Math.max(0, (r.attempts ?? 1) - 1), 0);
  return records;
}

/** Finishes a step that a crash interrupted: keeps finished calls, reruns idempotent ones, reports the rest. */
async function finishPendingStep(
  pending: NonNullable<Checkpoint['pending']>,
  state: RunState,
  config: LoopConfig,
  signal: AbortSignal,
  emit: (event: AgentEvent) => void,
  project: (step: Step) => Message[],
): Promise<void> {
  const done = new Map(pending.done.map((r) => [r.id, r]));
  const rerun = pending.calls.filter((c) => !done.has(c.id) && config.tools.isIdempotent(c.name));
  const rerunRecords = rerun.length ? await runTools(rerun, pending.index, state, config, signal, emit) : [];
  const byId = new Map([...done, ...rerunRecords.map((r) => [r.id, r] as const)]);
  const toolCalls = pending.calls.map(
    (c) =>
      byId.get(c.id) ??
      skippedCall(
        c,
        `The call to ${c.name} was interrupted by a restart and was not run again (the tool is not idempotent). Check its effect before calling it again.`,
      ),
  );
  const observation = toolCalls.map((c) => c.output).join('\n');
  const step: Step = {
    index: pending.index,
    kind: 'tool_calls',
    raw: pending.raw,
    thought: pending.thought,
    toolCalls,
    observation,
  };
  project(step);
  state.steps.push(step);
  emit(event(state, 'observation', { step: pending.index, text: observation }));
}

/** At maxSteps: one last call with no tools, asking for the best answer from what was gathered. */
async function bestEffortAnswer(
  head: PromptHead,
  state: RunState,
  config: LoopConfig,
  emit: (event: AgentEvent) => void,
  project: (step: Step) => Message[],
): Promise<string> {
  const messages: Message[] = [
    ...projectMessages(head, state.steps, project),
    { role: 'user', content: config.protocol.finalAnswerRequest(config.language) },
  ];
  const abort = linkAbort(config.run.signal, undefined);
  try {
    const response = await askModel(
      config.model,
      { messages, signal: abort.signal },
      state.steps.length,
      state,
      config,
      emit,
    );
    const reply = config.protocol.readReply(response);
    return reply.type === 'final' ? reply.answer : response.text.trim();
  } catch (error) {
    emit(
      event(state, 'warning', {
        code: 'final_answer_failed',
        message: `The last call for a best answer failed: ${errorMessage(error)}`,
      }),
    );
    return '';
  } finally {
    abort.dispose();
  }
}

function appendWarning(
  step: Step,
  callId: string | undefined,
  text: string,
  state: RunState,
  emit: (event: AgentEvent) => void,
): void {
  const call = step.toolCalls.find((c) => c.id === callId) ?? step.toolCalls.at(-1);
  if (call) call.output = `${call.output}\n[warning] ${text}`;
  step.warnings = [...(step.warnings ?? []), text];
  state.stats.repetitionWarnings += 1;
  emit(event(state, 'warning', { step: step.index, code: 'repetition', message: text }));
}

function skippedCall(call: ReadToolCall, message: string): ToolCallRecord {
  return { id: call.id, name: call.name, input: call.input, output: message, ok: false, error: message, durationMs: 0 };
}

function failure(error: unknown): StopReason {
  const code = isThinkflowError(error) ? error.code : 'error';
  return { status: 'failed', code, message: errorMessage(error) };
}

function checkpointOf(state: RunState): Checkpoint {
  return { runId: state.runId, input: state.input, steps: state.steps, usage: state.usage, stats: state.stats };
}

function stateView(state: RunState, step: number, model: Model, messages: Message[]) {
  return { runId: state.runId, step, input: state.input, steps: state.steps, model, tools: [], messages };
}

/**
 * One abort signal for the run: fires when the caller aborts or the time budget runs out, and
 * remembers which, so the run ends `aborted` or `budget_exceeded`.
 */
function linkAbort(outer: AbortSignal | undefined, maxDurationMs: number | undefined) {
  const controller = new AbortController();
  let why: StopReason | undefined;
  const onAbort = () => {
    why ??= ABORTED;
    controller.abort(outer?.reason);
  };
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  const timer =
    maxDurationMs === undefined
      ? undefined
      : setTimeout(() => {
          why ??= {
            status: 'budget_exceeded',
            code: 'time_budget',
            message: `The run passed its time budget of ${maxDurationMs} ms.`,
          };
          controller.abort(new Error('time budget'));
        }, maxDurationMs);
  return {
    signal: controller.signal,
    reason: () => why,
    dispose() {
      if (timer) clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}
