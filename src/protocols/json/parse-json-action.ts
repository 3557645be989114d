import { type ParsedStep, parseJsonLenient } from '../../core/index.js';
import { CALL_MARKERS } from '../calls/call-markers.js';
import { callsStep, readToolCalls } from '../calls/read-tool-calls.js';
import type { ReadContext } from '../protocol.js';
import { parseReAct } from '../react/parse-react.js';
import { invalid, joinThoughts, plainReply, readSafely, withExtras, withHabits } from '../shared/build-step.js';
import { readActionObject } from '../shared/call-syntax.js';
import { extractJson, hasRawControlInString } from '../shared/json.js';
import { LINE_KEYWORD, lineKeywordOf, splitSections } from '../shared/keywords.js';
import { readHarmonyFinal, stripSpecialTokens, stripThink } from '../shared/special-tokens.js';

const SHAPE =
  '{"thought": "...", "action": "<tool>", "action_input": {...}} or {"action": "final_answer", "action_input": "<answer>"}';

/**
 * Reads a JSON-protocol reply into a step. Finds the JSON in fences or prose, repairs it with
 * jsonrepair when needed (single quotes, trailing commas, comments, unquoted keys, a cut-off end),
 * and accepts every common shape: `{"thought", "action", "action_input"}`, `{"final_answer": …}`,
 * `"action": "final"`/`"Final Answer"`, `{"name", "arguments"}`, `<tool_call>` tags and arrays
 * (first action taken). A reply in ReAct form is read as ReAct. Never throws.
 *
 * @example
 * parseJsonAction('```json\n{"action": "search", "action_input": {"query": "vitest"}}\n```');
 * // → { type: 'action', tool: 'search', input: { query: 'vitest' } }
 */
export function parseJsonAction(text: string, context?: ReadContext): ParsedStep {
  return readSafely(text, (raw) => read(raw, context));
}

function read(raw: string, context: ReadContext | undefined): ParsedStep {
  // ReAct keywords with a decision: a JSON object in the Thought is an example, the Action is the call.
  const formats = hasDecision(raw) ? 'marked' : 'all';
  const found = readToolCalls(raw, { tools: context?.tools, formats });
  if (found.calls.length > 0) return callsStep(found);
  if (found.problem) return invalid(raw, found.problem);
  const answer = readHarmonyFinal(raw);
  if (answer) return answer;
  const tokens = stripSpecialTokens(raw);
  return withHabits(readText(tokens.text, raw), tokens.habits);
}

function readText(stripped: string, raw: string): ParsedStep {
  const { text, thought: think } = stripThink(stripped);
  const span = extractJson(text);
  if (!span) {
    if (splitSections(text).sections.length > 0) return parseReAct(raw);
    return plainReply(text, raw, think);
  }
  // A JSON object quoted in the Thought as an example is not the action when a real `Action:` follows.
  if (decisionAfter(text, span.end)) return parseReAct(raw);
  const parsed = parseJsonLenient(span.json);
  if (!parsed.ok)
    return invalid(raw, `The JSON could not be read (${parsed.error}). Reply with one JSON object: ${SHAPE}.`);
  const step = readActionObject(parsed.value, { raw, truncated: span.truncated });
  if (!step) {
    if (splitSections(text).sections.some((s) => s.keyword === 'action' || s.keyword === 'final_answer')) {
      return parseReAct(raw);
    }
    if (span.truncated)
      return invalid(raw, `The reply was cut off before the action was written. Reply with ${SHAPE}.`);
    return invalid(raw, `The JSON has no "action" (or "final_answer") key. Reply with ${SHAPE}.`);
  }
  if (step.type === 'action' && span.cutInString) {
    return invalid(
      raw,
      'The JSON was cut off in the middle of a string, so the action input is incomplete. Send the whole JSON object again.',
    );
  }
  // Prose before the JSON is the model's reasoning; a `thought` key inside the JSON comes after it.
  const prose = text.slice(0, span.start).replace(CALL_MARKERS, '').trim();
  const read = withExtras(step, joinThoughts(think, prose), parsed.repaired || span.truncated);
  return parsed.repaired && hasRawControlInString(span.json) ? withHabits(read, ['structured_input']) : read;
}

/** True when a ReAct `Action:` or `Final Answer:` line starts anywhere in the reply. */
function hasDecision(text: string): boolean {
  return decisionAfter(text, 0);
}

/** True when a ReAct `Action:` or `Final Answer:` line starts after `from`. */
function decisionAfter(text: string, from: number): boolean {
  if (from >= text.length) return false;
  for (const match of text.slice(from).matchAll(LINE_KEYWORD)) {
    const keyword = lineKeywordOf(match);
    if (keyword === 'action' || keyword === 'final_answer') return true;
  }
  return false;
}
