import type { Message, Step, ToolCall } from '../../core/index.js';

/**
 * The messages that record a native step: the assistant turn with its tool calls, then exactly one
 * `tool` message per call, in the same order, so a call is never separated from its result (a call
 * that did not run still gets a result saying so). Warnings belong inside the tool outputs (the loop
 * appends them there), so no message can come between a call and its result. Notes come last.
 */
export function nativeStepMessages(step: Step, correction: (reason: string) => string): Message[] {
  const notes = step.notes ?? [];
  // The reasoning goes back with its turn: Anthropic rejects a tool-use turn without its thinking blocks.
  const reasoning = step.reasoning?.length ? { reasoning: step.reasoning } : undefined;
  if (step.kind === 'final') {
    return [{ role: 'assistant', content: step.raw || step.answer || '', ...reasoning }, ...notes];
  }
  if (step.kind === 'invalid') {
    const content = step.observation ?? correction(step.invalidReason ?? 'The reply could not be used.');
    return [
      { role: 'assistant', content: step.raw || '(empty reply)', ...reasoning },
      { role: 'user', content },
      ...notes,
    ];
  }
  const calls = callsOf(step);
  const results: Message[] = calls.map((call) => {
    const record = step.toolCalls.find((r) => r.id === call.id);
    return {
      role: 'tool',
      toolCallId: call.id,
      name: call.name,
      content: !record
        ? 'This call was not run.'
        : record.media
          ? [{ type: 'text', text: record.output }, ...record.media]
          : record.output,
    };
  });
  return [{ role: 'assistant', content: step.raw, toolCalls: calls, ...reasoning }, ...results, ...notes];
}

/** The calls as the model sent them, or rebuilt from the records when they were read out of text. */
function callsOf(step: Step): ToolCall[] {
  if (step.rawToolCalls && step.rawToolCalls.length > 0) return step.rawToolCalls;
  return step.toolCalls.map((r) => ({
    id: r.id,
    name: r.name,
    arguments: typeof r.input === 'string' ? r.input : JSON.stringify(r.input ?? {}),
  }));
}
