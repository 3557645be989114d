/**
 * The ReAct keywords as models write them (the one table: the protocols' parsers cut replies with it,
 * and the answer reader streams what follows a final-answer marker with it), and the action names that
 * mean "final answer".
 */

/** The ReAct keywords, in their canonical form. */
export type ReActKeyword = 'thought' | 'action' | 'action_input' | 'observation' | 'final_answer';

/**
 * Spellings of each keyword, English and Chinese (simplified and traditional). English is matched in
 * any letter case, and a space in a spelling may be any run of spaces and underscores (`final_answer`);
 * longer spellings come first so `Action Input` is not read as `Action`.
 */
export const KEYWORD_SPELLINGS: readonly (readonly [ReActKeyword, readonly string[]])[] = [
  ['final_answer', ['final answer', '最终答案', '最终回答', '最終答案', '最終回答']],
  ['action_input', ['action input', '行动输入', '动作输入', '行動輸入', '動作輸入', '工具输入']],
  ['action', ['action', '行动', '动作', '行動', '動作']],
  ['observation', ['observation', '观察结果', '观察', '觀察']],
  ['thought', ['thoughts', 'thought', '思考', '想法', '思路']],
];

const ALTERNATION = KEYWORD_SPELLINGS.map(
  ([, words]) => `(${words.map((word) => word.replaceAll(' ', '[ _]*')).join('|')})`,
).join('|');

/**
 * A keyword at the start of a line: optional quote/bullet/heading marks and markdown emphasis, the
 * keyword, an optional step number (`Action 2:` as in the ReAct paper), emphasis again, then an ASCII
 * or full-width colon, possibly inside the emphasis (`**Thought:**`).
 */
export const LINE_KEYWORD = new RegExp(
  `^[ \\t>]*(?:[-+•][ \\t]+|#{1,6}[ \\t]*|\\d+[.)][ \\t]+)?[*_\`]*[ \\t]*(?:${ALTERNATION})(?:[ \\t]*\\d+)?[ \\t]*[*_\`]*[ \\t]*[:：][*_\`]*[ \\t]*`,
  'gimu',
);

/**
 * A keyword in the middle of a line (`Thought: … Action: search`): English keywords must be
 * capitalised and follow a space or punctuation, Chinese ones need only the colon.
 */
export const INLINE_KEYWORD =
  /(?:(?<=[\s.,;!?。，；！？])[*_]*(?:(Final Answer)|(Action Input)|(Action)|(Observation))|((?:最终答案|最終答案))|((?:行动输入|行動輸入))|((?:行动|行動))|((?:观察|觀察)))[*_]*\s*[:：][*_]*[ \t]*/gu;

const INLINE_KINDS: ReActKeyword[] = [
  'final_answer',
  'action_input',
  'action',
  'observation',
  'final_answer',
  'action_input',
  'action',
  'observation',
];

/** Which keyword a LINE_KEYWORD match is. */
export function lineKeywordOf(match: RegExpMatchArray): ReActKeyword {
  for (let g = 0; g < KEYWORD_SPELLINGS.length; g++) if (match[g + 1] !== undefined) return KEYWORD_SPELLINGS[g][0];
  return 'thought';
}

/** Which keyword an INLINE_KEYWORD match is. */
export function inlineKeywordOf(match: RegExpMatchArray): ReActKeyword {
  for (let g = 0; g < INLINE_KINDS.length; g++) if (match[g + 1] !== undefined) return INLINE_KINDS[g];
  return 'action';
}

/** Normalises a name for comparison: lower case, no spaces, underscores or dashes. */
export function squash(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}

const FINAL = new Set(['finalanswer', 'final', 'finish', 'answer', 'respond', '最终答案', '最終答案', '最终回答']);

/** True when an action name means "I am answering" (`final_answer`, `Final Answer`, `Finish`, `最终答案`). */
export function isFinalName(name: string): boolean {
  return FINAL.has(squash(name));
}
