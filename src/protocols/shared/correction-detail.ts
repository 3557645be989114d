import type { CorrectionDetail, Language } from '../protocol.js';
import { fill } from './prompt-template.js';

/** The lines that quote the model and show the fix, per language. */
const LINES: Record<Language, { quote: string; fix: string }> = {
  en: { quote: 'You wrote:\n{quote}', fix: 'Write this instead:\n{fix}' },
  zh: { quote: '你写的是：\n{quote}', fix: '请改成：\n{fix}' },
};

/** The ReAct keywords a corrected line uses, in the reply's language. */
export const FIX_KEYWORDS: Record<Language, { action: string; input: string; final: string }> = {
  en: { action: 'Action: ', input: 'Action Input: ', final: 'Final Answer: ' },
  zh: { action: '行动：', input: '行动输入：', final: '最终答案：' },
};

const HAN = /\p{Script=Han}/gu;
const LATIN = /[A-Za-z]/g;

/**
 * The language a reply is written in: Chinese when Han characters outnumber a third of its letters,
 * English when it has Latin letters, else `fallback` (the prompt's language). Corrections follow the
 * reply, so a model prompted in English that answers in Chinese is corrected in Chinese.
 */
export function replyLanguage(reply: string, fallback: Language): Language {
  const han = reply.match(HAN)?.length ?? 0;
  const latin = reply.match(LATIN)?.length ?? 0;
  if (han === 0 && latin === 0) return fallback;
  return han * 3 >= latin ? 'zh' : 'en';
}

/**
 * A correction from its template: the reason, then (when known) the model's own words quoted back
 * and the exact line to write instead, so a model that keeps a habit sees precisely what to change.
 */
export function renderCorrection(
  template: string,
  reason: string,
  language: Language,
  detail: CorrectionDetail = {},
): string {
  const parts = [fill(template, { reason })];
  const lines = LINES[language];
  if (detail.quote) parts.push(fill(lines.quote, { quote: shorten(detail.quote) }));
  if (detail.fix) parts.push(fill(lines.fix, { fix: detail.fix }));
  return parts.join('\n\n');
}

function shorten(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > 300 ? `${trimmed.slice(0, 299)}…` : trimmed;
}
