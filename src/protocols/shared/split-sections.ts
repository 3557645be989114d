import {
  INLINE_KEYWORD,
  inlineKeywordOf,
  LINE_KEYWORD,
  lineKeywordOf,
  type ReActKeyword,
} from './normalize-keywords.js';

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

/**
 * Cuts a reply at its ReAct keywords. Keywords count at the start of a line; inside Thought and
 * Action lines, inline keywords split too (`Thought: … Action: search Action Input: x`). Inline
 * keywords are not looked for in inputs and answers, whose text may legitimately contain them.
 */
export function splitSections(text: string): Sections {
  const marks = [...text.matchAll(LINE_KEYWORD)];
  if (marks.length === 0) return { preamble: text.trim(), sections: [] };
  const sections: Section[] = [];
  marks.forEach((m, i) => {
    const start = (m.index ?? 0) + m[0].length;
    const end = i + 1 < marks.length ? (marks[i + 1].index ?? text.length) : text.length;
    sections.push(...splitInline({ keyword: lineKeywordOf(m), content: text.slice(start, end) }));
  });
  return { preamble: text.slice(0, marks[0].index ?? 0).trim(), sections: sections.map(trimmed) };
}

function splitInline(section: Section): Section[] {
  if (section.keyword !== 'thought' && section.keyword !== 'action') return [section];
  const firstLine = section.content.split('\n', 1)[0];
  const match = [...firstLine.matchAll(INLINE_KEYWORD)][0];
  if (!match) return [section];
  const at = match.index ?? 0;
  const head = { keyword: section.keyword, content: section.content.slice(0, at) };
  const rest = { keyword: inlineKeywordOf(match), content: section.content.slice(at + match[0].length) };
  return [head, ...splitInline(rest)];
}

function trimmed(section: Section): Section {
  return { keyword: section.keyword, content: section.content.replace(/\s+$/, '').replace(/^[ \t]*\n?/, '') };
}
