import type { ParsedStep } from '../../core/index.js';
import { coerceValue } from './coerce-input.js';
import { invalid, withExtras, withHabits } from './invalid.js';
import { isRecord } from './json.js';
import { isFinalName, squash } from './keywords.js';

/** How the JSON was obtained, which changes what a missing field means. */
export interface ReadObjectOptions {
  /** The raw reply, for invalid results. */
  raw: string;
  /** The JSON was cut off: a missing input means it was lost, not that there is none. */
  truncated?: boolean;
}

const INPUT_KEYS = ['actioninput', 'input', 'toolinput', 'arguments', 'args', 'parameters', 'params', '行动输入'];
const THOUGHT_KEYS = ['thought', 'thoughts', 'reasoning', 'reason', 'think', '思考'];

/**
 * Reads a parsed JSON value as a step, in every shape models use:
 * `{"thought", "action", "action_input"}`, `{"final_answer": …}`, `"action": "final"`/`"Final Answer"`,
 * function-call style `{"name", "arguments"|"parameters"}`, `{"tool", "tool_input"}`, OpenAI-style
 * `{"function": {…}}`/`{"tool_calls": […]}`, AutoGPT `{"thoughts", "command": {"name", "args"}}`, and
 * arrays (the first action is taken). Returns undefined when the value does not look like a step at all.
 */
export function readActionObject(value: unknown, options: ReadObjectOptions): ParsedStep | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const step = readActionObject(item, options);
      if (step) return step;
    }
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const fields = new Map(Object.entries(value).map(([k, v]) => [squash(k), v]));
  const thought = readThought(fields);
  const nested =
    fields.get('function') ??
    fields.get('functioncall') ??
    fields.get('toolcall') ??
    fields.get('toolcalls') ??
    fields.get('command');
  if (nested !== undefined && (isRecord(nested) || Array.isArray(nested))) {
    const step = readActionObject(nested, options);
    if (step) return withHabits(withExtras(step, thought, false), ['json_envelope']);
  }
  if (fields.has('finalanswer')) return final(fields.get('finalanswer'), thought, options);
  const action = fields.get('action') ?? fields.get('tool') ?? fields.get('toolname') ?? fields.get('name');
  if (isRecord(action) || Array.isArray(action)) {
    const step = readActionObject(action, options);
    if (step) return withExtras(step, thought, false);
  }
  if (typeof action === 'string' && isActionShaped(fields)) {
    const input = INPUT_KEYS.map((k) => fields.get(k)).find((v) => v !== undefined);
    if (isFinalName(action)) return final(input ?? fields.get('answer') ?? '', thought, options);
    const step = tool(action.trim(), input, thought, options);
    // The prompted shape is {"action", "action_input"}; a function-call shape is another habit.
    return fields.has('action') && (input === undefined || fields.has('actioninput'))
      ? step
      : withHabits(step, ['json_envelope']);
  }
  if (fields.has('answer') && !fields.has('name')) return final(fields.get('answer'), thought, options);
  return undefined;
}

/** `name` alone is too common a key to mean a call; it needs arguments beside it. */
function isActionShaped(fields: Map<string, unknown>): boolean {
  if (fields.has('action') || fields.has('tool') || fields.has('toolname')) return true;
  return INPUT_KEYS.some((k) => fields.has(k));
}

function tool(name: string, input: unknown, thought: string | undefined, options: ReadObjectOptions): ParsedStep {
  if (name === '') return invalid(options.raw, 'The action name is empty. Put the tool name in "action".');
  if ((input === undefined || input === null) && options.truncated) {
    return invalid(
      options.raw,
      `The reply was cut off before the input of "${name}" was written. Send the whole JSON object again, with "action_input".`,
    );
  }
  const coerced = coerceValue(input);
  if (!coerced.ok) return invalid(options.raw, coerced.reason);
  const step = withExtras({ type: 'action', tool: name, input: coerced.input }, thought, coerced.repaired);
  return withHabits(step, coerced.habits ?? []);
}

function final(value: unknown, thought: string | undefined, options: ReadObjectOptions): ParsedStep {
  const answer = typeof value === 'string' ? value.trim() : JSON.stringify(value ?? '');
  if (answer === '') {
    return invalid(
      options.raw,
      'The final answer is empty. Put the answer text in "action_input" (or "final_answer").',
    );
  }
  return withExtras({ type: 'final', answer }, thought, false);
}

function readThought(fields: Map<string, unknown>): string | undefined {
  for (const key of THOUGHT_KEYS) {
    const value = fields.get(key);
    if (typeof value === 'string' && value.trim()) return value.trim();
    if (isRecord(value) && typeof value.text === 'string') return value.text.trim();
  }
  return undefined;
}
