/**
 * A reply in the loop's `ReadReply` shape: a parsed text step (a text action gets a stable call id),
 * or the provider's own tool calls with their ids and strict-JSON arguments.
 */
import { type ModelResponse, type ParsedStep, parseJsonObject, type ReadToolCall } from '../../core/index.js';
import type { ReadReply } from '../protocol.js';
import { joinThoughts } from './build-step.js';
import { stripThink } from './special-tokens.js';

/** Turns a parsed text step into the loop's reply shape, giving a text action a stable call id. */
export function readParsedStep(step: ParsedStep, response: ModelResponse): ReadReply {
  const repaired = step.type !== 'invalid' && step.repaired ? { repaired: true } : {};
  const habits = step.type !== 'invalid' && step.habits?.length ? { habits: step.habits } : {};
  const thought = step.type !== 'invalid' && step.thought ? { thought: step.thought } : {};
  switch (step.type) {
    case 'action': {
      const calls = step.calls ?? [{ name: step.tool, input: step.input }];
      return {
        type: 'tool_calls',
        ...thought,
        // One id per call, from the reply and the call's place in it: replays and resumes get the same ids.
        calls: calls.map((c, i) => ({ id: textCallId(response.text, i), name: c.name, input: c.input })),
        ...repaired,
        ...habits,
      };
    }
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
  const given = response.toolCalls ?? [];
  const calls: ReadToolCall[] = [];
  for (const c of given) calls.push({ id: c.id, name: c.name, input: readArguments(c.arguments) });
  // Literals, not a spread of the optional thought: the loop reads this reply at once (docs/loop.md).
  return merged ? { type: 'tool_calls', thought: merged, calls } : { type: 'tool_calls', calls };
}

function withLengthHint(reason: string, response: ModelResponse): string {
  if (response.finishReason !== 'length') return reason;
  return `${reason} (Your reply hit the output length limit: keep the next one shorter.)`;
}

/**
 * A stable id for a tool call read out of text (json and react protocols have no provider id).
 * Derived from the reply so that parsing stays pure and replays produce the same ids.
 */
function textCallId(text: string, index: number): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `call_${(hash >>> 0).toString(36)}_${index}`;
}

/**
 * A provider's arguments string as the object it holds, when it is strict JSON for an object;
 * anything else (JSON-ish text, a bare value, an empty string) stays the raw string for the tool
 * layer to repair or coerce. Parsing here once saves the guards and the executor parsing it again.
 *
 * @example
 * readArguments('{"city":"Paris"}'); // { city: 'Paris' }
 * readArguments("{city: 'Paris',}"); // "{city: 'Paris',}"
 */
export function readArguments(raw: string): unknown {
  if (typeof raw !== 'string' || raw.charCodeAt(0) !== 123 /* { */) return raw;
  try {
    // JSON.parse's value, read faster where the arguments are one flat object (most are).
    const value: unknown = parseJsonObject(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : raw;
  } catch {
    return raw;
  }
}
