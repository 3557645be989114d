/**
 * What an answer stream must not send while a model's reply streams: the marks of a protocol's
 * scaffolding (a ReAct keyword line, a call tag, a chat-template token, a `<think>` block), and what
 * could still become one. Each test looks at one line or a few characters, so what a stream holds
 * back for them is bounded.
 */
import { CALL_STARTS, CALL_TAG, FENCE_LINE } from '../calls/call-markers.js';
import { INLINE_KEYWORD, inlineKeywordOf, KEYWORD_SPELLINGS, type KeywordMark, keywordAt } from '../shared/keywords.js';

export { CALL_TAG };

/** Reads one model call's reply, as it streams, into the part of it that is answer text. */
export interface ReplyScanner {
  /** Reads the next piece of the reply; returns the answer text that can go out now. */
  push(text: string): string;
  /** The reply ended with tool calls: what of its text still goes out (the text said before them). */
  endWithCalls(): string;
}

export { type KeywordMark, keywordAt };

const INLINE_KEYWORD_IN = new RegExp(INLINE_KEYWORD.source, 'u');

/** The first keyword inside a line (`Thought: … Final Answer: 42`), if any. */
export function inlineKeywordIn(text: string): (KeywordMark & { index: number }) | undefined {
  const match = INLINE_KEYWORD_IN.exec(text);
  return match
    ? { keyword: inlineKeywordOf(match), index: match.index, end: match.index + match[0].length }
    : undefined;
}

const DECORATION = /^[ \t>]*(?:[-+•][ \t]+|#{1,6}[ \t]*|\d+[.)][ \t]+)?[*_`]*[ \t]*/u;
const PARTIAL_DECORATION = /^[ \t>]*(?:[-+•]|#{1,6}|\d+[.)]?)?[ \t]*[*_`]*[ \t]*$/u;
/** After a keyword, before its colon: a step number and emphasis (spaces squashed away). */
const BEFORE_COLON = /^\d*[*_`]*$/u;
const WORDS = KEYWORD_SPELLINGS.flatMap(([, words]) => words.map((word) => word.replaceAll(' ', '')));

/**
 * True when `line`, the start of a line still arriving, may yet become a keyword line: it is only
 * decoration so far (`- **`), part of a keyword (`Fin`, `最终`), or a keyword waiting for its colon.
 * `Final results`, `The answer` or `1990 was` cannot, so they go out at once.
 */
export function mayBecomeKeyword(line: string): boolean {
  if (PARTIAL_DECORATION.test(line)) return true;
  const decoration = DECORATION.exec(line)?.[0].length ?? 0;
  const rest = line
    .slice(decoration)
    .toLowerCase()
    .replace(/[ \t_]/g, '');
  return WORDS.some(
    (word) => word.startsWith(rest) || (rest.startsWith(word) && BEFORE_COLON.test(rest.slice(word.length))),
  );
}

const CALL_TAG_STARTS = CALL_STARTS.map((tag) => tag.toLowerCase());
const LONGEST_TAG = Math.max(...CALL_TAG_STARTS.map((tag) => tag.length));

/** Where the end of `text` (from `from` on) may still become a call tag; `text.length` when it cannot. */
export function tagTail(text: string, from: number): number {
  for (let i = Math.max(from, text.length - LONGEST_TAG + 1); i < text.length; i++) {
    if (text[i] !== '<' && text[i] !== '[') continue;
    const tail = text.slice(i).toLowerCase();
    if (CALL_TAG_STARTS.some((tag) => tag.startsWith(tail))) return i;
  }
  return text.length;
}

const THINK_TAGS = ['<think>', '<thinking>', '<reasoning>'];

/**
 * A reasoning block at the start of `text` (`<think>`): `open` once its opening tag is whole, with the
 * closing tag to look for; `maybe` while the text is still a prefix of such a tag.
 */
export function thinkOpening(text: string): { open: string; close: string } | 'maybe' | undefined {
  const head = text.slice(0, 12).toLowerCase();
  for (const tag of THINK_TAGS) {
    if (head.startsWith(tag)) return { open: tag, close: `</${tag.slice(1)}` };
    if (tag.startsWith(head)) return 'maybe';
  }
  return undefined;
}

/** The language of a fence line (`''` for a bare one), or undefined when `line` is not a fence line. */
export function fenceLanguage(line: string): string | undefined {
  return FENCE_LINE.exec(line)?.[1].toLowerCase();
}

/** True when `line`, still arriving, may yet become a fence line. */
export function mayBecomeFence(line: string): boolean {
  return /^[ \t]*`{0,2}$/.test(line) || fenceLanguage(line) !== undefined;
}

/** `end`, moved back over the whitespace before it. */
export function withoutTrailingSpace(text: string, end: number): number {
  while (end > 0 && /\s/.test(text[end - 1])) end--;
  return end;
}
