import type { Message, Step } from '../core/index.js';
import type { Checkpoint } from './agent-options.js';
import type { Emit, LoopConfig } from './loop-config.js';
import { event, type RunState } from './run-state.js';
import { runTools } from './run-tools.js';
import { skippedCall } from './step-records.js';

/** Finishes a step that a crash interrupted: keeps finished calls, reruns idempotent ones, reports the rest. */
export async function finishPendingStep(
  pending: NonNullable<Checkpoint['pending']>,
  state: RunState,
  config: LoopConfig,
  signal: AbortSignal,
  emit: Emit,
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
