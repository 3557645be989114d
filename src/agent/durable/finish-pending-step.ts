import type { Step } from '../../core/index.js';
import { endedByTool, joinOutputs, registerOffered, runStepCalls, skippedCall } from '../calls/index.js';
import type { PendingStep, RunContext } from '../run/index.js';
import { event, toolEndEvent } from '../run/index.js';

/**
 * Finishes a step that a crash interrupted. Calls recorded as ended keep their records and never run
 * again; calls that did not end run again if they were waiting for approval or a slot (not started) or
 * their tool is idempotent, through the tool-call guardrails and approvals as the first time; the
 * model is told the others were interrupted. Under a step journal the journal's records decide (the
 * same rules, `runJournaledCall`); without one, the checkpoint's `done` and `waiting`.
 * A pending step that is already among the steps (the crash came after it was recorded) is skipped.
 * Resolves with the run's answer when a call ended the run with one (code mode's `final_answer`).
 * The built-ins offered now, and those the pending calls name, are registered first (`registerOffered`).
 */
export async function finishPendingStep(
  ctx: RunContext,
  pending: PendingStep,
): Promise<{ answer: string } | undefined> {
  const { state, config, emit } = ctx;
  registerOffered(
    ctx,
    pending.calls.map((c) => c.name),
  );
  const idempotent = (name: string) => config.tools.registry.get(name)?.idempotent === true;
  if (pending.index < state.steps.length) return undefined;
  // Under a step journal (the built-in engine's, in the run store) every call goes through it again: a
  // call that ended is read back from its record, one cut off and not idempotent comes back interrupted
  // (its `:start` record), the others run. Without one, the checkpoint's records decide the same.
  const done = new Map(ctx.journal ? [] : pending.done.map((r) => [r.id, r]));
  // A call that was waiting (for approval or a slot) had not started: it runs again, as any idempotent one does.
  const waited = new Set(pending.waiting);
  const rerun = pending.calls.filter(
    (c) => ctx.journal || (!done.has(c.id) && (waited.has(c.id) || idempotent(c.name))),
  );
  if (rerun.length > 0) {
    // Reruns are written as they end too, so a second crash keeps them.
    await ctx.checkpoints?.saveStep(state, pending);
    for (const record of await runStepCalls(ctx, rerun, pending.index)) done.set(record.id, record);
  }
  const toolCalls = pending.calls.map((c) => {
    const record = done.get(c.id);
    if (record) return record;
    const cut = skippedCall(
      c,
      `The call to ${c.name} was interrupted by a restart and was not run again (the tool is not idempotent). Check its effect before calling it again.`,
    );
    // Its tool_start went out before the crash: the stream gets the call's end too.
    emit(toolEndEvent(state, pending.index, cut));
    return cut;
  });
  // Labelled as an uninterrupted step of several calls would be.
  const observation = joinOutputs(toolCalls, toolCalls.length > 1);
  const step: Step = {
    index: pending.index,
    kind: 'tool_calls',
    raw: pending.raw,
    thought: pending.thought,
    toolCalls,
    observation,
  };
  const ended = endedByTool(ctx, step);
  ctx.project(step);
  state.steps.push(step);
  emit(event(state, 'observation', { step: pending.index, text: observation }));
  // A program that called final_answer when it ran again ends the run with that answer.
  return ended && step.answer !== undefined ? { answer: step.answer } : undefined;
}
