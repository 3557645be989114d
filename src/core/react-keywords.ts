/**
 * The ReAct keywords, the one table of them: their spellings in English and Chinese. The protocols
 * read replies with it (`protocols/shared/keywords.ts` builds their patterns from it), and it sits in
 * core so that what lies below the protocols (the chaos model's corruptions) reads the same table.
 */

/** The ReAct keywords, in their canonical form. */
export type ReActKeyword = 'thought' | 'action' | 'action_input' | 'observation' | 'final_answer';

/**
 * Spellings of each keyword, English and Chinese (simplified and traditional). English is matched in
 * any letter case at a line's start, and a space in a spelling may be any run of spaces and underscores
 * (`final_answer`); longer keywords come first so `Action Input` is not read as `Action`. The first
 * spelling in each language is the one prompts and corrections write (`keywordLabel`).
 */
export const KEYWORD_SPELLINGS: readonly (readonly [ReActKeyword, readonly string[]])[] = [
  ['final_answer', ['final answer', '最终答案', '最终回答', '最終答案', '最終回答']],
  ['action_input', ['action input', '行动输入', '动作输入', '行動輸入', '動作輸入', '工具输入']],
  ['action', ['action', '行动', '动作', '行動', '動作']],
  ['observation', ['observation', '观察', '观察结果', '觀察']],
  ['thought', ['thought', 'thoughts', '思考', '想法', '思路']],
];
