import type { ModelResponse, ParsedStep } from '../../core/index.js';
import type { ReadReply } from '../protocol.js';
import { textCallId } from './call-id.js';
import { joinThoughts } from './invalid.js';
import { readArguments } from './read-arguments.js';
import { stripThink } from './special-tokens.js';

/** Turns a parsed text step into the loop's reply shape, giving a text action a stable call id. */
export function readParsedStep(step: ParsedStep, response: ModelResponse): ReadReply {
  const repaired = step.type !== 'invalid' && step.repaired ? { repaired: true } : {};
  const habits = step.type !== 'invalid' && step.habits?.length ? { habits: step.habits } : {};
  const thought = step.type !== 'invalid' && step.thought ? { thought: step.thought } : {};
  switch (step.type) {
    case 'action':
      return {
        type: 'tool_calls',
        ...thought,
        calls: [{ id: textCallId(response.text, 0), name: step.tool, input: step.input }],
        ...repaired,
        ...habits,
      };
    case 'final':
      return { type: 'final', ...thought, answer: step.answer, ...repaired, ...habits };
    case 'invalid':
      return {
        type: 'invalid',
        reason: withLengthHint(step.reason, response),
        raw: step.raw,
        ...(step.quote ? { quote: step.quote } : {}),
        ...(step.fix ? { fix: step.fix } : {}),
      };
  }
}

/**
 * Provider tool calls, ids preserved. Arguments that are strict JSON become objects; any other text is
 * left to the tool layer, which repairs or coerces it (the raw reply stays in the step's `rawToolCalls`).
 */
export function readNativeCalls(response: ModelResponse): ReadReply {
  const { text, thought } = stripThink(response.text);
  const merged = joinThoughts(thought, text);
  return {
    type: 'tool_calls',
    ...(merged ? { thought: merged } : {}),
    calls: (response.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, input: readArguments(c.arguments) })),
  };
}

function withLengthHint(reason: string, response: ModelResponse): string {
  if (response.finishReason !== 'length') return reason;
  return `${reason} (Your reply hit the output length limit: keep the next one shorter.)`;
}
