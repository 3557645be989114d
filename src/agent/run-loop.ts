import { type Message, type RunResult, type Step, withFields } from '../core/index.js';
import type { Model } from '../llm/index.js';
import { replyLanguage } from '../protocols/index.js';
import type { AnyTool } from '../tools/index.js';
import { askModel } from './ask-model.js';
import { bestEffortAnswer } from './best-effort-answer.js';
import { createStepProjector, type PromptHead, projectMessages } from './build-messages.js';
import { createCheckpointer } from './checkpointer.js';
import { countRepair } from './count-repair.js';
import { endRun, failure } from './end-run.js';
import { finishPendingStep } from './finish-pending-step.js';
import { fitContext } from './fit-context.js';
import { guardText } from './guardrails/index.js';
import {
  budgetGuard,
  createRepetitionTracker,
  createSameObservationTracker,
  invalidStreakGuard,
  maxStepsGuard,
  type StopReason,
} from './guards/index.js';
import { ABORTED, linkAbort } from './link-abort.js';
import type { Emit, LoopConfig } from './loop-config.js';
import { decideNextStep } from './next-step.js';
import { questionMessage } from './question-message.js';
import { reflect } from './reflect.js';
import { routeStepTools } from './route-step-tools.js';
import { createRunState, event, type RunState } from './run-state.js';
import { runStepCalls, type ToolStepContext } from './run-tools.js';
import { appendWarning, joinOutputs, skippedCall } from './step-records.js';

export type { Emit, LoopConfig } from './loop-config.js';

/**
 * The agent loop, top to bottom: build the prompt, call the model, read the reply, then either
 * finish or run the tools, record the observation, check the guards, repeat.
 * Every decision goes out through `emit` as an AgentEvent.
 */
export async function runLoop(input: string, config: LoopConfig, emit: Emit): Promise<RunResult> {
  const { model, protocol, tools, options, run, language } = config;
  const maxSteps = options.maxSteps ?? 10;
  const budget = run.budget ?? options.budget;
  const state = createRunState(run.runId, input, run.parentRunId, run.resume);
  state.silent = config.silent;
  config.bindState?.(state);
  const project = createStepProjector(protocol, language);
  const repetition = createRepetitionTracker();
  const sameObservation = createSameObservationTracker(options.sameObservationLimit ?? 3);
  const abort = linkAbort(run.signal, budget?.maxDurationMs);
  const head: PromptHead = {
    system: { role: 'system', content: config.system ?? protocol.systemPrompt(config.prompt) },
    history: run.history ?? [],
    question: questionMessage(input, run.attachments),
  };
  const requestTools = protocol.requestTools(config.prompt);
  const stopSequences = protocol.stop?.(language);
  const checkpoints = createCheckpointer(run.onCheckpoint);
  const tooling: ToolStepContext = { state, config, signal: abort.signal, emit, checkpoints };

  if (!state.silent) {
    emit(
      event(state, 'run_start', {
        input,
        agent: options.name,
        model: model.id,
        protocol: protocol.name,
        tools: tools.names(),
      }),
    );
  }
  if (config.recalled?.length) emit(event(state, 'memory_recall', { memories: config.recalled }));
  for (const w of config.warnings ?? []) emit(event(state, 'warning', w));

  let stop: StopReason | undefined;
  let final: { answer: string; object?: unknown } | undefined;
  try {
    const guardedInput = await guardText(options.guardrails?.input, 'input', input, state, abort.signal, emit);
    stop = guardedInput.stop;
    head.question = questionMessage(guardedInput.text, run.attachments);
    if (run.resume?.pending) await finishPendingStep(run.resume.pending, tooling, project);
    // Answered before the crash: end with that answer.
    if (run.resume?.final) final = run.resume.final;

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
      let stepTools = requestTools;
      let stepSpecs = config.prompt.tools;
      if (config.router) {
        const routed = await routeStepTools(config.router, config, state, index, emit);
        messages = [routed.system, ...messages.slice(1)];
        stepTools = routed.tools;
        stepSpecs = routed.specs;
      }
      let stepModel = model;
      if (options.beforeStep) {
        const overrides = await options.beforeStep(stateView(state, index, stepModel, messages, tools.list()));
        stepModel = overrides?.model ?? stepModel;
        if (overrides?.tools) {
          // A different tool set for this step: the model sees only these (they must be registered to run).
          const prompt = withFields(config.prompt, {
            tools: overrides.tools.map(({ name, description, parameters }) => ({ name, description, parameters })),
          });
          stepSpecs = prompt.tools;
          stepTools = protocol.requestTools(prompt);
          if (!overrides.messages)
            messages = [{ role: 'system', content: protocol.systemPrompt(prompt) }, ...messages.slice(1)];
        }
        messages = overrides?.messages ?? messages;
      }
      if (checkpoints) await checkpoints.save(state);

      // 2. Call the model.
      const response = await askModel(
        stepModel,
        {
          messages,
          tools: stepTools,
          promptTools: stepTools ? undefined : stepSpecs,
          stop: stopSequences,
          protocol: protocol.name,
          responseFormat: config.responseFormat,
          signal: abort.signal,
        },
        index,
        state,
        config,
        emit,
      );

      // 3. Read the reply into the next move.
      const next = decideNextStep(protocol.readReply(response), response.text, options.outputSchema);
      if (next.thought) emit(event(state, 'thought', { step: index, text: next.thought }));
      const step: Step = {
        index,
        kind: 'final',
        raw: response.text,
        rawToolCalls: response.toolCalls,
        reasoning: response.reasoning,
        thought: next.thought,
        toolCalls: [],
        usage: response.usage,
      };
      countRepair(next, step, state, emit);

      // 4. Finish, correct, or run the tools.
      if (next.type === 'final') {
        state.invalidStreak = 0;
        const guarded = await guardText(options.guardrails?.output, 'output', next.answer, state, abort.signal, emit);
        step.answer = guarded.text;
        stop = guarded.stop;
        if (!stop) {
          final = { answer: guarded.text, object: next.object };
          emit(event(state, 'final', { step: index, output: guarded.text, object: next.object }));
        }
      } else if (next.type === 'retry_parse') {
        state.stats.invalidReplies += 1;
        state.invalidStreak += 1;
        Object.assign(step, {
          kind: 'invalid',
          invalidReason: next.reason,
          observation: protocol.correction(next.reason, replyLanguage(next.raw, language), next),
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
          if (checkpoints) {
            const pending = { index, raw: response.text, thought: next.thought, calls: next.calls, done: [] };
            await checkpoints.saveStep(state, pending);
          }
          const running = runStepCalls(next.calls, index, tooling);
          step.toolCalls = running instanceof Promise ? await running : running;
          for (const w of warnings) appendWarning(step, w.callId, w.text, state, emit);
          const same = sameObservation.check(joinOutputs(step.toolCalls, false));
          if (same.warning) appendWarning(step, step.toolCalls.at(-1)?.id, same.warning, state, emit);
          stop = same.stop;
        }
        step.observation = joinOutputs(step.toolCalls, next.calls.length > 1);
        emit(event(state, 'observation', { step: index, text: step.observation }));
      }

      // 5. Record the step, hand off or reflect if asked, and check the guards again.
      state.steps.push(step);
      if (options.afterStep) await options.afterStep(step, stateView(state, index, stepModel, messages, tools.list()));
      const handoff = step.toolCalls.find((c) => c.ok && config.handoffTools?.has(c.tool ?? c.name));
      if (handoff && config.handoff && !stop) {
        const target = await config.handoff(handoff.tool ?? handoff.name, step, state, abort.signal, emit);
        if (target.status === 'done') {
          final = { answer: target.output, object: target.object };
          emit(event(state, 'final', { step: index, output: target.output, object: target.object }));
        } else
          stop = {
            status: target.status,
            code: target.error?.code ?? 'handoff',
            message: target.error?.message ?? `The handoff ended ${target.status}.`,
          };
      }
      if (final) checkpoints?.finalReached(state, final);
      if (options.reflectEvery && !final && !stop && state.steps.length % options.reflectEvery === 0) {
        await reflect(
          options.models?.cheap ?? model,
          projectMessages(head, state.steps, project),
          state,
          language,
          abort.signal,
          emit,
        );
      }
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
  return endRun(state, stop, { output, object: final?.object }, emit, config.onFinish);
}

function stateView(state: RunState, step: number, model: Model, messages: Message[], tools: readonly AnyTool[]) {
  return { runId: state.runId, step, input: state.input, steps: state.steps, model, tools, messages };
}
