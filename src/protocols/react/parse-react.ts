import type { ParsedStep } from '../../core/index.js';
import { callsStep, readToolCalls } from '../calls/read-tool-calls.js';
import type { ReadContext } from '../protocol.js';
import {
  invalid,
  joinActions,
  joinThoughts,
  plainReply,
  readSafely,
  withExtras,
  withHabits,
} from '../shared/build-step.js';
import { isNoneName, type Section, splitSections, unwrapFences } from '../shared/keywords.js';
import { readHarmonyFinal, stripSpecialTokens, stripThink } from '../shared/special-tokens.js';
import { detail, FORMAT_HINT, readReActAction } from './read-react-action.js';

/**
 * LlamaIndex's ReAct format ends with `Answer:` rather than `Final Answer:`; Chinese prompts say
 * `答案：`/`回答：`. Read as the final answer only when the reply has no Action and no Final Answer.
 */
const ANSWER_ALIAS = /^[ \t>]*[*_]*(?:answer|答案|回答)[*_]*[ \t]*[:：][*_]*[ \t]*/im;

/** A cheap test before the exact one: an Action that may be "None", "N/A", "无"... */
const NONE_START = /^[\s*_`"'[]*(?:n|无|没)/i;

/**
 * Reads a ReAct reply (`Thought: / Action: / Action Input: / Final Answer:`, or the Chinese
 * 思考 / 行动 / 行动输入 / 最终答案) into a step. Tolerates what models really write: any letter case,
 * markdown emphasis, full-width colons, `<think>` blocks, `search[query]` calls, fenced inputs and
 * fenced whole replies, commentary after the input, quoted inputs, other frameworks' keywords,
 * hallucinated observations, chat-template tokens, `<tool_call>` tags, native token-format calls and
 * bare JSON actions. The habits read through are named in `habits`. Never throws.
 *
 * @example
 * parseReAct('Thought: I need the weather.\nAction: get_weather\nAction Input: {"city": "Paris"}');
 * // → { type: 'action', thought: 'I need the weather.', tool: 'get_weather', input: { city: 'Paris' } }
 */
export function parseReAct(text: string, context?: ReadContext): ParsedStep {
  return readSafely(text, (raw) => read(raw, context));
}

function read(raw: string, context: ReadContext | undefined): ParsedStep {
  const marked = readToolCalls(raw, { formats: 'marked' });
  if (marked.calls.length > 0) return callsStep(marked);
  if (marked.problem) return invalid(raw, marked.problem);
  const answer = readHarmonyFinal(raw);
  if (answer) return answer;
  const tokens = stripSpecialTokens(raw);
  const { text: unthought, thought: think } = stripThink(tokens.text);
  const fences = unwrapFences(unthought);
  const step = readSections(fences.text, raw, think, context);
  if (tokens.habits.length === 0 && fences.habits.length === 0) return step;
  return withHabits(step, [...tokens.habits, ...fences.habits]);
}

function readSections(text: string, raw: string, think: string | undefined, context?: ReadContext): ParsedStep {
  const { preamble, sections } = splitSections(text);
  const kept = dropObservations(sections);
  const decision = kept.findIndex((s) => s.keyword === 'action' || s.keyword === 'final_answer');
  if (decision < 0) {
    const found = readToolCalls(text, { tools: context?.tools });
    if (found.calls.length > 0) return withExtras(callsStep(found), think, false);
    if (found.problem) return invalid(raw, found.problem);
    const answer = answerAlias(text, preamble, kept, think);
    if (answer) return answer;
    if (kept.length === 0) return plainReply(text, raw, think);
    const last = text.trim().split('\n').at(-1) ?? '';
    return invalid(
      raw,
      `The reply has a Thought but no Action and no Final Answer. ${FORMAT_HINT}`,
      detail(raw, last, 'final'),
    );
  }
  const thought = joinThoughts(
    think,
    preamble,
    ...kept.slice(0, decision).map((s) => (s.keyword === 'thought' ? s.content : undefined)),
  );
  const chosen = kept[decision];
  if (chosen.keyword === 'action' && NONE_START.test(chosen.content) && isNoneName(actionName(chosen.content))) {
    // `Action: None` then the answer: the model is answering, in a format that had no slot for it.
    const later = kept.findIndex((s, i) => i > decision && s.keyword === 'final_answer');
    const answer = later < 0 ? undefined : finalStep(kept[later], raw, thought);
    const alias = later < 0 ? answerAlias(chosen.content, '', [], thought) : undefined;
    if ((answer && answer.type !== 'invalid') || alias)
      return withHabits((answer ?? alias) as ParsedStep, ['no_action']);
  }
  if (chosen.keyword === 'final_answer') return finalStep(chosen, raw, thought);
  return withExtras(readActions(kept, decision, raw, context), thought, false);
}

/**
 * The Action at `decision` and any further Actions written before an answer: several `Action:` blocks
 * in one reply are several calls, made together. A later block that cannot be read leaves the first alone.
 */
function readActions(kept: Section[], decision: number, raw: string, context?: ReadContext): ParsedStep {
  const steps: ParsedStep[] = [];
  for (let i = decision; i < kept.length && kept[i].keyword !== 'final_answer'; i++) {
    if (kept[i].keyword !== 'action') continue;
    const next = kept[i + 1];
    const input = next?.keyword === 'action_input' ? next.content : undefined;
    steps.push(readReActAction(kept[i].content, input, raw, context?.tools));
  }
  const actions = steps.filter((s) => s.type === 'action');
  return actions.length === steps.length ? joinActions(actions) : steps[0];
}

function finalStep(section: Section, raw: string, thought: string | undefined): ParsedStep {
  const answer = section.content.trim();
  if (!answer) return invalid(raw, 'The Final Answer is empty. Write the answer after "Final Answer:".');
  return withExtras({ type: 'final', answer }, thought, false);
}

/** An `Answer:` line (LlamaIndex) read as the final answer, with the text before it as the thought. */
function answerAlias(
  text: string,
  preamble: string,
  kept: Section[],
  think: string | undefined,
): ParsedStep | undefined {
  const match = ANSWER_ALIAS.exec(text);
  if (!match) return undefined;
  const answer = text.slice(match.index + match[0].length).trim();
  if (!answer) return undefined;
  const before = splitSections(text.slice(0, match.index));
  const thought = joinThoughts(
    think,
    before.preamble || (kept.length === 0 ? preamble : undefined),
    ...before.sections.filter((s) => s.keyword === 'thought').map((s) => s.content),
  );
  return withHabits(withExtras({ type: 'final', answer }, thought, false), ['foreign_keywords']);
}

/** The first line of an Action section without decoration, to compare with "None". */
function actionName(content: string): string {
  return content
    .split('\n', 1)[0]
    .trim()
    .replace(/^[*_`"'[]+|[*_`"'.。\]]+$/g, '')
    .trim();
}

/** A hallucinated Observation ends the reply; one at the very start is the model echoing its input. */
function dropObservations(sections: Section[]): Section[] {
  const start = sections[0]?.keyword === 'observation' ? 1 : 0;
  const cut = sections.findIndex((s, i) => i >= start && s.keyword === 'observation');
  return sections.slice(start, cut < 0 ? sections.length : cut);
}
