import type { ParsedStep } from '../../core/index.js';
import { invalid, joinThoughts, readSafely, withExtras } from '../shared/invalid.js';
import { plainReply } from '../shared/plain-reply.js';
import { readUnstructured } from '../shared/read-unstructured.js';
import { type Section, splitSections } from '../shared/split-sections.js';
import { stripThink } from '../shared/strip-think.js';
import { FORMAT_HINT, readReActAction } from './read-react-action.js';

/**
 * Reads a ReAct reply (`Thought: / Action: / Action Input: / Final Answer:`, or the Chinese
 * 思考 / 行动 / 行动输入 / 最终答案) into a step. Tolerates what models really write: any letter case,
 * markdown emphasis, full-width colons, `<think>` blocks, `search[query]` calls, fenced inputs,
 * hallucinated observations, `<tool_call>` tags and bare JSON actions. Never throws.
 *
 * @example
 * parseReAct('Thought: I need the weather.\nAction: get_weather\nAction Input: {"city": "Paris"}');
 * // → { type: 'action', thought: 'I need the weather.', tool: 'get_weather', input: { city: 'Paris' } }
 */
export function parseReAct(text: string): ParsedStep {
  return readSafely(text, read);
}

function read(raw: string): ParsedStep {
  const { text, thought: think } = stripThink(raw);
  const { preamble, sections } = splitSections(text);
  const kept = dropObservations(sections);
  const decision = kept.findIndex((s) => s.keyword === 'action' || s.keyword === 'final_answer');
  if (decision < 0) {
    const unstructured = readUnstructured(text, raw);
    if (unstructured) return withExtras(unstructured, think, false);
    if (kept.length === 0) return plainReply(text, raw, think);
    return invalid(raw, `The reply has a Thought but no Action and no Final Answer. ${FORMAT_HINT}`);
  }
  const thought = joinThoughts(
    think,
    preamble,
    ...kept.slice(0, decision).map((s) => (s.keyword === 'thought' ? s.content : undefined)),
  );
  const chosen = kept[decision];
  if (chosen.keyword === 'final_answer') {
    const answer = chosen.content.trim();
    if (!answer) return invalid(raw, 'The Final Answer is empty. Write the answer after "Final Answer:".');
    return withExtras({ type: 'final', answer }, thought, false);
  }
  const next = kept[decision + 1];
  const inputText = next?.keyword === 'action_input' ? next.content : undefined;
  return withExtras(readReActAction(chosen.content, inputText, raw), thought, false);
}

/** A hallucinated Observation ends the reply; one at the very start is the model echoing its input. */
function dropObservations(sections: Section[]): Section[] {
  const start = sections[0]?.keyword === 'observation' ? 1 : 0;
  const cut = sections.findIndex((s, i) => i >= start && s.keyword === 'observation');
  return sections.slice(start, cut < 0 ? sections.length : cut);
}
