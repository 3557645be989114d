/** Normalises a name for comparison: lower case, no spaces, underscores or dashes. */
export function squash(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}

const FINAL = new Set(['finalanswer', 'final', 'finish', 'answer', 'respond', '最终答案', '最終答案', '最终回答']);
const NONE = new Set(['none', 'n/a', 'na', 'null', 'noaction', '无', '没有']);

/** True when an action name means "I am answering" (`final_answer`, `Final Answer`, `Finish`, `最终答案`). */
export function isFinalName(name: string): boolean {
  return FINAL.has(squash(name));
}

/** True when an action name means "no action" (`None`, `N/A`, `None (direct response required)`). */
export function isNoneName(name: string): boolean {
  return NONE.has(squash(name.replace(/\s*[(（][^()（）]*[)）]\s*$/u, '')));
}
