import type { ModelResponse, ParsedStep } from '../../core/index.js';
import type { ReadReply } from '../protocol.js';
import { textCallId } from './call-id.js';
import { joinThoughts } from './invalid.js';
import { stripThink } from './strip-think.js';

/** Turns a parsed text step into the loop's reply shape, giving a text action a stable call id. */
export function readParsedStep(step: ParsedStep, response: ModelResponse): ReadReply {
  const repaired = step.type !== 'invalid' && step.repaired ? { repaired: true } : {};
  const thought = step.type !== 'invalid' && step.thought ? { thought: step.thought } : {};
  switch (step.type) {
    case 'action':
      return {
        type: 'tool_calls',
        ...thought,
        calls: [{ id: textCallId(response.text, 0), name: step.tool, input: step.input }],
        ...repaired,
      };
    case 'final':
      return { type: 'final', ...thought, answer: step.answer, ...repaired };
    case 'invalid':
      return { type: 'invalid', reason: withLengthHint(step.reason, response), raw: step.raw };
  }
}

/** Provider tool calls, kept as sent: ids preserved, the raw arguments string left to the tool layer. */
export function readNativeCalls(response: ModelResponse): ReadReply {
  const { text, thought } = stripThink(response.text);
  const merged = joinThoughts(thought, text);
  return {
    type: 'tool_calls',
    ...(merged ? { thought: merged } : {}),
    calls: (response.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, input: c.arguments })),
  };
}

function withLengthHint(reason: string, response: ModelResponse): string {
  if (response.finishReason !== 'length') return reason;
  return `${reason} (Your reply hit the output length limit: keep the next one shorter.)`;
}
