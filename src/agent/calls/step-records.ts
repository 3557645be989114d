import type { ReadToolCall, Step, ToolCallRecord } from '../../core/index.js';
import { event, type RunScope } from '../run/index.js';

/** Adds a warning to a call's output (the model sees it; the last call's when `callId` is not found) and to the step, and emits it. */
export function appendWarning(
  { state, emit }: RunScope,
  step: Step,
  { callId, text }: { callId?: string; text: string },
): void {
  const call = step.toolCalls.find((c) => c.id === callId) ?? step.toolCalls.at(-1);
  if (call) call.output = `${call.output}\n[warning] ${text}`;
  step.warnings = [...(step.warnings ?? []), text];
  state.stats.repetitionWarnings += 1;
  emit(event(state, 'warning', { step: step.index, code: 'repetition', message: text }));
}

/** A call that did not run, with the reason as its output. */
export function skippedCall(call: ReadToolCall, message: string): ToolCallRecord {
  return { id: call.id, name: call.name, input: call.input, output: message, ok: false, error: message, durationMs: 0 };
}

/** A step's observation: each call's output, labelled with its tool's name when `labelled` (several calls). */
export function joinOutputs(records: readonly ToolCallRecord[], labelled: boolean): string {
  if (records.length === 1 && !labelled) return records[0].output;
  // Joined by hand: a mapped array and `join` cost more than the rest of a parallel call (docs/loop.md).
  let text = '';
  for (let i = 0; i < records.length; i++) {
    const { name, output } = records[i];
    if (i > 0) text += '\n';
    text += labelled ? `[${name}] ${output}` : output;
  }
  return text;
}

/** The step's first successful call of a handoff tool: none to look for when the agent has no handoffs. */
export function handoffCall(handoffTools: ReadonlySet<string> | undefined, step: Step): ToolCallRecord | undefined {
  if (!handoffTools) return undefined;
  for (const call of step.toolCalls) if (call.ok && handoffTools.has(call.tool ?? call.name)) return call;
  return undefined;
}
