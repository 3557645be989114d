/**
 * The ReAct keywords as replies are read with them: their spellings (core's one table), the action names
 * that mean "final answer" or "no action", the sections a reply is cut into, the fences models put
 * around ReAct lines, and where a reply's own decision ends (so an invented Observation is dropped).
 * The ReAct, JSON, native and code protocols and the stream readers (`protocols/stream/`) all read
 * replies with what is defined here.
 */
import { KEYWORD_SPELLINGS, type ReActKeyword, type ReplyHabit, squash } from '../../core/index.js';
import { FENCE_LINE } from '../calls/call-markers.js';
import { closingQuote } from './json.js';

export { KEYWORD_SPELLINGS, type ReActKeyword, squash };

const isEnglish = (word: string) => /^[a-z ]+$/.test(word);
const pattern = (word: string) => word.replaceAll(' ', '[ _]*');
const capitalised = (word: string) => pattern(word.replace(/(^|\s)[a-z]/g, (c) => c.toUpperCase()));

const ALTERNATION = KEYWORD_SPELLINGS.map(([, words]) => `(${words.map(pattern).join('|')})`).join('|');

/** The spellings of `keyword` in the table. */
export function spellingsOf(keyword: ReActKeyword): readonly string[] {
  return KEYWORD_SPELLINGS.find(([k]) => k === keyword)?.[1] ?? [];
}

/**
 * The keyword as prompts, examples and corrections write it, with its colon: `Action Input: `, `行动输入：`.
 */
export function keywordLabel(keyword: ReActKeyword, language: 'en' | 'zh'): string {
  const words = spellingsOf(keyword);
  return language === 'en'
    ? `${(words.find(isEnglish) ?? '').replace(/(^|\s)[a-z]/g, (c) => c.toUpperCase())}: `
    : `${words.find((w) => !isEnglish(w)) ?? ''}：`;
}

/**
 * A keyword at the start of a line: optional quote/bullet/heading marks and markdown emphasis, the
 * keyword, an optional step number (`Action 2:` as in the ReAct paper), emphasis again, then an ASCII
 * or full-width colon, possibly inside the emphasis (`**Thought:**`).
 */
export const LINE_KEYWORD = new RegExp(
  `^[ \\t>]*(?:[-+•][ \\t]+|#{1,6}[ \\t]*|\\d+[.)][ \\t]+)?[*_\`]*[ \\t]*(?:${ALTERNATION})(?:[ \\t]*\\d+)?[ \\t]*[*_\`]*[ \\t]*[:：][*_\`]*[ \\t]*`,
  'gimu',
);

/** A markdown heading that is a keyword and nothing else: `### Action`, `## **行动输入**`. The keyword is `$1`. */
const HEADING_KEYWORD = new RegExp(
  `^[ \\t]*#{1,6}[ \\t]+[*_]*((?:${KEYWORD_SPELLINGS.flatMap(([, words]) => words.map(pattern)).join('|')})(?:[ \\t]*\\d+)?)[*_]*[ \\t]*$`,
  'gimu',
);

/** A keyword written as a tag, opening or closing: `<action_input>`, `</thought>`. The keyword is `$2`. */
const TAG_KEYWORD = new RegExp(
  `<(/?)[ \\t]*(${KEYWORD_SPELLINGS.flatMap(([, words]) => words.map(pattern)).join('|')})[ \\t]*>[ \\t]*\\n?`,
  'giu',
);

/** Keywords that cut a line in its middle (a Thought never starts mid-line). */
const INLINE_KINDS = KEYWORD_SPELLINGS.filter(([keyword]) => keyword !== 'thought');
const INLINE_ENGLISH = INLINE_KINDS.map(([, words]) => `(${words.filter(isEnglish).map(capitalised).join('|')})`);
const INLINE_CHINESE = INLINE_KINDS.map(([, words]) => `(${words.filter((w) => !isEnglish(w)).join('|')})`);
/** Which keyword each capture group of INLINE_KEYWORD is. */
const INLINE_GROUPS: ReActKeyword[] = [...INLINE_KINDS, ...INLINE_KINDS].map(([keyword]) => keyword);

/**
 * A keyword in the middle of a line (`Thought: … Action: search`): English keywords must be
 * capitalised and follow a space or punctuation, Chinese ones need only the colon. Emphasis around
 * either (`**Action:**`, `**行动：**`) and a step number (`Action 2:`, the ReAct paper's) are part of it.
 */
export const INLINE_KEYWORD = new RegExp(
  `(?:(?<=[\\s.,;!?。，；！？])[*_]*(?:${INLINE_ENGLISH.join('|')})|[*_]*(?:${INLINE_CHINESE.join('|')}))(?:[ \\t]*\\d+)?[*_]*\\s*[:：][*_]*[ \\t]*`,
  'gu',
);

/** Which keyword a LINE_KEYWORD match is. */
export function lineKeywordOf(match: RegExpMatchArray): ReActKeyword {
  for (let g = 0; g < KEYWORD_SPELLINGS.length; g++) if (match[g + 1] !== undefined) return KEYWORD_SPELLINGS[g][0];
  return 'thought';
}

/** Which keyword an INLINE_KEYWORD match is. */
export function inlineKeywordOf(match: RegExpMatchArray): ReActKeyword {
  for (let g = 0; g < INLINE_GROUPS.length; g++) if (match[g + 1] !== undefined) return INLINE_GROUPS[g];
  return 'action';
}

/** A keyword line's keyword and where its text starts. */
export interface KeywordMark {
  keyword: ReActKeyword;
  /** The index just after the keyword (its colon, emphasis and spaces). */
  end: number;
}

const LINE_KEYWORD_AT = new RegExp(LINE_KEYWORD.source, 'iu');

/** The ReAct keyword `line` starts with, if any. */
export function keywordAt(line: string): KeywordMark | undefined {
  const match = LINE_KEYWORD_AT.exec(line);
  return match ? { keyword: lineKeywordOf(match), end: match[0].length } : undefined;
}

const FINAL = new Set(['final', 'finish', 'answer', 'respond', ...spellingsOf('final_answer').map(squash)]);

/** True when an action name means "I am answering" (`final_answer`, `Final Answer`, `Finish`, `最终答案`). */
export function isFinalName(name: string): boolean {
  return FINAL.has(squash(name));
}

/** One keyword and the text that follows it, up to the next keyword. */
export interface Section {
  keyword: ReActKeyword;
  content: string;
}

/** A reply cut into its ReAct sections. */
export interface Sections {
  /** Text before the first keyword (models often reason there). */
  preamble: string;
  sections: Section[];
}

/** The first inline keyword in a line: INLINE_KEYWORD without the global flag, so `exec` keeps no state. */
const FIRST_INLINE = new RegExp(INLINE_KEYWORD.source, 'u');

/**
 * Cuts a reply at its ReAct keywords. Keywords count at the start of a line; inside Thought and
 * Action lines, inline keywords split too (`Thought: … Action: search Action Input: x`). Inline
 * keywords are not looked for in inputs and answers, whose text may legitimately contain them.
 */
export function splitSections(text: string): Sections {
  // An exec loop, not [...matchAll()]: matchAll clones the regex on every call, and every reply comes here.
  const marks: RegExpExecArray[] = [];
  LINE_KEYWORD.lastIndex = 0;
  for (let m = LINE_KEYWORD.exec(text); m; m = LINE_KEYWORD.exec(text)) {
    marks.push(m);
    // A JSON input's strings may hold lines that look like keywords ("…\nObservation: …"): skip past them.
    if (lineKeywordOf(m) !== 'action_input') continue;
    const end = jsonValueEnd(text, m.index + m[0].length);
    if (end > LINE_KEYWORD.lastIndex) LINE_KEYWORD.lastIndex = end;
  }
  if (marks.length === 0) {
    // Markdown headings as keywords (`### Thought`, `## 行动`), with no colon: read only when no keyword
    // with a colon is there, so a heading inside an answer (`## 思路`) never cuts it.
    HEADING_KEYWORD.lastIndex = 0;
    if (HEADING_KEYWORD.test(text)) return splitSections(text.replace(HEADING_KEYWORD, '$1:'));
    // Keywords as tags (`<thought>…</thought><action>search</action>`), read the same way when the reply
    // opens with one (an answer that merely holds such a tag, as XML, stays an answer).
    TAG_KEYWORD.lastIndex = 0;
    const opening = TAG_KEYWORD.exec(text);
    if (opening && opening[1] === '' && text.slice(0, opening.index).trim() === '') {
      return splitSections(
        text.replace(TAG_KEYWORD, (_tag, close: string, word: string) => (close ? '\n' : `\n${word}: `)),
      );
    }
    return { preamble: text.trim(), sections: [] };
  }
  const sections: Section[] = [];
  for (let i = 0; i < marks.length; i++) {
    const m = marks[i];
    const end = i + 1 < marks.length ? marks[i + 1].index : text.length;
    splitInline(lineKeywordOf(m), text.slice(m.index + m[0].length, end), sections);
  }
  return { preamble: text.slice(0, marks[0].index).trim(), sections };
}

/**
 * Where the JSON object or array that starts at `from` (after spaces and a fence line) ends, reading
 * its strings as strings; -1 when no JSON starts there or it never closes (a cut-off reply).
 */
function jsonValueEnd(text: string, from: number): number {
  const start = JSON_START.exec(text.slice(from, from + 40));
  if (!start) return -1;
  let depth = 0;
  for (let i = from + start[0].length - 1; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      i = closingQuote(text, i);
      if (i < 0) return -1;
    } else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
  }
  return -1;
}

const JSON_START = /^\s*(?:```[\w-]*[ \t]*\n\s*)?[{[]/;

/** Adds a section to `out`, cut again at each inline keyword on the first line of a Thought or Action. */
function splitInline(keyword: ReActKeyword, content: string, out: Section[]): void {
  let match: RegExpExecArray | null = null;
  if (keyword === 'thought' || keyword === 'action') {
    const newline = content.indexOf('\n');
    match = FIRST_INLINE.exec(newline < 0 ? content : content.slice(0, newline));
  }
  if (!match) {
    out.push(trimmed(keyword, content));
    return;
  }
  // `Thought: x, Action: search,`: the comma joined the sections, it is no part of either.
  out.push(trimmed(keyword, content.slice(0, match.index).replace(/[,，;；]\s*$/u, '')));
  splitInline(inlineKeywordOf(match), content.slice(match.index + match[0].length), out);
}

function trimmed(keyword: ReActKeyword, content: string): Section {
  return { keyword, content: content.trimEnd().replace(/^[ \t]*\n?/, '') };
}

const NONE = new Set(['none', 'n/a', 'na', 'null', 'noaction', '无', '没有']);

/** True when an action name means "no action" (`None`, `N/A`, `None (direct response required)`). */
export function isNoneName(name: string): boolean {
  return NONE.has(squash(name.replace(/\s*[(（][^()（）]*[)）]\s*$/u, '')));
}

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

/** A reply with the code fences around its ReAct lines taken away. */
export interface FencesUnwrapped {
  text: string;
  habits: ReplyHabit[];
}

/**
 * Removes the fence lines of code blocks that hold the reply's ReAct lines themselves (```` ``` ````
 * or ```` ```text ```` around `Thought: … Action Input: …`), so the closing fence never becomes part
 * of an input or an answer. Only a fence whose first line is a ReAct keyword is unwrapped, whatever
 * language it names (```` ```json ```` around Action lines too): a fenced JSON input or a code block
 * inside a final answer is left as it is. Fences inside the unwrapped
 * block that open with a language (```json) are matched with their own closer.
 */
export function unwrapFences(text: string): FencesUnwrapped {
  if (!text.includes('```')) return { text, habits: [] };
  const lines = text.split('\n');
  const drop = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    if (!FENCE_LINE.test(lines[i])) continue;
    // Whatever the fence's language says (```json, ```text), a block that opens with a keyword line holds ReAct lines.
    const first = lines.findIndex((l, j) => j > i && l.trim() !== '');
    if (first < 0 || !startsWithKeyword(lines[first])) continue;
    drop.add(i);
    const close = closingLine(lines, i + 1);
    if (close < 0) break;
    drop.add(close);
    i = close;
  }
  if (drop.size === 0) return { text, habits: [] };
  return { text: lines.filter((_, i) => !drop.has(i)).join('\n'), habits: ['fenced_reply'] };
}

function startsWithKeyword(line: string): boolean {
  LINE_KEYWORD.lastIndex = 0;
  const match = LINE_KEYWORD.exec(line);
  LINE_KEYWORD.lastIndex = 0;
  return match !== null && match.index === 0;
}

/** The line of the bare fence closing the block opened before `from`, skipping nested ```lang blocks. */
function closingLine(lines: string[], from: number): number {
  let nested = false;
  for (let j = from; j < lines.length; j++) {
    const fence = FENCE_LINE.exec(lines[j]);
    if (!fence) continue;
    if (fence[1] !== '') nested = true;
    else if (nested) nested = false;
    else return j;
  }
  return -1;
}
