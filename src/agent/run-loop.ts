import type { RunResult } from '../core/index.js';
import { replyLanguage } from '../protocols/index.js';
import { guardText, handoffCall, runStepTools } from './calls/index.js';
import { finishPendingStep } from './durable/index.js';
import { budgetGuard, invalidStreakGuard, maxStepsGuard, type StopReason } from './guards/index.js';
import {
  ABORTED,
  announceRun,
  createRunContext,
  type Emit,
  endRun,
  event,
  failure,
  type LoopConfig,
  type RunState,
} from './run/index.js';
import {
  bestEffortAnswer,
  countRepair,
  modelAnswered,
  newStep,
  nextStep,
  prepareStep,
  promptHead,
  questionMessage,
  reflect,
  startModelCall,
  stepLimit,
  stepRequest,
  stepState,
  stopWhen,
} from './step/index.js';

export type { Emit, LoopConfig } from './run/index.js';

/**
 * The agent loop, top to bottom: prepare the step, ask the model, read the reply, then finish,
 * correct, or run the tools; record the step and check the guards; repeat. The caller makes the
 * run's state (and may read it while the run goes on); every decision goes out through `emit`.
 */
export async function runLoop(state: RunState, config: LoopConfig, emit: Emit): Promise<RunResult> {
  const { model, protocol, options, run, language } = config;
  const budget = run.budget ?? options.budget;
  const { ctx, abort } = createRunContext(state, config, emit);
  const head = promptHead(state, config);
  const stopSequences = protocol.stop?.(language);
  const maxSteps = stepLimit(options);
  announceRun(state, config, emit);

  let stop: StopReason | undefined;
  let final: { answer: string; object?: unknown } | undefined;
  try {
    // Without guardrails the text comes back as it is: no promise to wait for.
    const guarding = guardText(ctx, options.guardrails?.input, 'input', state.input);
    const input = guarding instanceof Promise ? await guarding : guarding;
    stop = input.stop;
    head.question = questionMessage(input.text, run.attachments);
    if (run.resume?.pending) final = await finishPendingStep(ctx, run.resume.pending);
    // Answered before the crash: end with that answer.
    if (run.resume?.final) final = run.resume.final;

    while (!stop && !final) {
      stop =
        (abort.signal.aborted ? abort.reason() : undefined) ??
        budgetGuard(state.usage, state.startedAt, budget) ??
        maxStepsGuard(state.steps.length, maxSteps);
      if (stop) break;

      // 1. Prepare the step: its model, prompt and tools.
      const index = state.steps.length;
      if (!state.silent) emit(event(state, 'step_start', { step: index }));
      const preparing = prepareStep(ctx, head, index);
      const prepared = preparing instanceof Promise ? await preparing : preparing;
      if (ctx.checkpoints) await ctx.checkpoints.save(state);

      // 2. Ask the model.
      const request = stepRequest(config, prepared, { stop: stopSequences, signal: abort.signal });
      const call = { model: prepared.model, request, step: index, streaming: options.streaming ?? true };
      const asked = startModelCall(ctx, call, prepared.chars);
      const response = modelAnswered(ctx, asked, await asked.reply);

      // 3. Read the reply, once, into the next move: final, tool_calls or invalid (the step's kind).
      const read = protocol.readReply(response, { tools: prepared.specs });
      const reply = nextStep(read, { raw: response.text, config });
      if (reply.thought) emit(event(state, 'thought', { step: index, text: reply.thought }));
      const step = newStep(index, reply, response);
      countRepair(ctx, reply, step);

      // 4. Finish, correct, or run the tools.
      if (reply.type === 'final') {
        state.invalidStreak = 0;
        const guarding = guardText(ctx, options.guardrails?.output, 'output', reply.answer);
        const guarded = guarding instanceof Promise ? await guarding : guarding;
        step.answer = guarded.text;
        stop = guarded.stop;
        if (!stop) final = { answer: guarded.text, object: reply.object };
        if (final) emit(event(state, 'final', { step: index, output: final.answer, object: final.object }));
      } else if (reply.type === 'invalid') {
        state.stats.invalidReplies += 1;
        state.invalidStreak += 1;
        step.invalidReason = reply.reason;
        step.observation = protocol.correction(reply.reason, replyLanguage(reply.raw, language), reply);
        emit(event(state, 'invalid_output', { step: index, reason: reply.reason, raw: reply.raw }));
        emit(event(state, 'observation', { step: index, text: step.observation }));
        stop = invalidStreakGuard(state.invalidStreak, options.maxInvalidReplies ?? 3, reply.reason);
      } else {
        state.invalidStreak = 0;
        const ran = runStepTools(ctx, step, reply.calls);
        stop = ran instanceof Promise ? await ran : ran;
        // A program that called final_answer (code mode) ends the run with its answer.
        if (step.answer !== undefined) final = { answer: step.answer };
      }

      // 5. Record the step, hand off or reflect if asked, and check the guards again.
      state.steps.push(step);
      if (options.afterStep) await options.afterStep(step, stepState(ctx, index, prepared));
      const handoff = handoffCall(config.handoffTools, step);
      if (handoff && config.handoff && !stop) {
        const target = await config.handoff(handoff.tool ?? handoff.name, step, ctx);
        if (target.status === 'done') final = { answer: target.output, object: target.object };
        else stop = { status: target.status, code: target.error?.code ?? 'handoff', message: handoffEnd(target) };
        if (final) emit(event(state, 'final', { step: index, output: final.answer, object: final.object }));
      }
      // The user's stop conditions (`stopWhen`): a reason to stop, or an answer to end with (`calledTool`).
      const ended = !stop && !final ? stopWhen(ctx, index) : undefined;
      if (ended && 'answer' in ended) final = ended;
      else stop ??= ended;
      if (final) ctx.checkpoints?.finalReached(state, final);
      if (options.reflectEvery && !final && !stop && state.steps.length % options.reflectEvery === 0) {
        await reflect(ctx, options.models?.cheap ?? model, ctx.prompt(head, state.steps));
      }
      stop ??= budgetGuard(state.usage, state.startedAt, budget);
    }
  } catch (error) {
    stop = abort.signal.aborted ? (abort.reason() ?? ABORTED) : failure(error);
  } finally {
    abort.dispose();
  }

  let output = final?.answer ?? '';
  if (stop?.status === 'max_steps' && options.finalAnswerOnMaxSteps !== false)
    output = await bestEffortAnswer(ctx, head);
  return endRun(ctx, { stop, output, object: final?.object }, config.onFinish);
}

function handoffEnd(target: RunResult): string {
  return target.error?.message ?? `The handoff ended ${target.status}.`;
}
