import { LINE_KEYWORD, lineKeywordOf } from './normalize-keywords.js';

/**
 * The reply up to a hallucinated `Observation:` that follows its Action or Final Answer. What the
 * model invented after its action is dropped from the history, so it never reads its own fake
 * observation back as if it were real.
 */
export function cutAfterDecision(raw: string): string {
  let decided = false;
  for (const match of raw.matchAll(LINE_KEYWORD)) {
    const keyword = lineKeywordOf(match);
    if (keyword === 'observation' && decided) return raw.slice(0, match.index).trimEnd();
    if (keyword === 'action' || keyword === 'final_answer') decided = true;
  }
  return raw;
}
