import {
  CALL_TAG,
  fenceLanguage,
  inlineKeywordIn,
  type KeywordMark,
  keywordAt,
  mayBecomeFence,
  mayBecomeKeyword,
  type ReplyScanner,
  thinkOpening,
  withoutTrailingSpace,
} from './reply-markers.js';

/**
 * With the `react` protocol a reply is scaffolding (`Thought:`, `Action:`) until its decision, so only
 * what follows a final-answer marker (`Final Answer:`, `最终答案：`, at a line's start or inline in a
 * Thought line) goes out, as it streams, the way the ReAct parser reads it: the reply's first decision
 * counts (an Action before it means no answer here), the answer starts after the marker's spaces and ends
 * at the next keyword line (a hallucinated `Observation:`) or at the fence closing a fenced reply. A line
 * of the answer that may still become a keyword line waits until it can be told.
 */
export function createReactScanner(): ReplyScanner {
  let text = '';
  /** Where the line being read starts. */
  let line = 0;
  let phase: 'seek' | 'answer' | 'done' = 'seek';
  let sent = 0;
  /** The answer's first line starts mid-line, after the marker: it is never a keyword line. */
  let firstLine = true;
  /** The answer's first character was read (the spaces before it are not the answer's). */
  let begun = false;
  /** The reply opened with a fence around its ReAct lines: a bare fence line closes it. */
  let fenced = false;
  /** A keyword line was read before the one being read. */
  let sawSection = false;
  let close = '';

  const release = (to: number): string => {
    // Spaces at the end wait for what follows them: the answer may end there.
    const end = withoutTrailingSpace(text, to);
    if (end <= sent) return '';
    const out = text.slice(sent, end);
    sent = end;
    return out;
  };

  /** Starts the answer at `at`, past the spaces and line break the parser trims. */
  const begin = (at: number): string => {
    phase = 'answer';
    line = at;
    sent = at;
    return answer();
  };

  function seek(): string {
    for (;;) {
      if (close) {
        const end = text.toLowerCase().indexOf(close, line);
        if (end < 0) return '';
        line = end + close.length;
        close = '';
      }
      const newline = text.indexOf('\n', line);
      const current = text.slice(line, newline < 0 ? text.length : newline);
      if (CALL_TAG.test(current)) {
        phase = 'done';
        return '';
      }
      const think = thinkOpening(current.trimStart());
      if (think === 'maybe' && newline < 0) return '';
      if (think && think !== 'maybe') {
        line += current.length - current.trimStart().length + think.open.length;
        close = think.close;
        continue;
      }
      const mark = decision(current, newline >= 0);
      if (mark === 'wait') return '';
      if (mark === 'stop') {
        phase = 'done';
        return '';
      }
      if (mark !== undefined) return begin(line + mark);
      if (newline < 0) return '';
      if (!sawSection && fenceLanguage(current) !== undefined) fenced = true;
      if (keywordAt(current)) sawSection = true;
      line = newline + 1;
    }
  }

  /**
   * What a line decides: the answer starts at an index of it, or an action (or a hallucinated
   * observation) means no answer in this reply; `'wait'` while the marker's spaces may still arrive.
   */
  function decision(current: string, whole: boolean): number | 'stop' | 'wait' | undefined {
    const mark = keywordAt(current);
    if (!mark) return undefined;
    // An observation opening the reply is the model echoing its input; a later one ends the reply.
    if (mark.keyword === 'observation') return sawSection ? 'stop' : undefined;
    let found: KeywordMark | undefined;
    if (mark.keyword === 'action' || mark.keyword === 'final_answer') found = mark;
    else if (mark.keyword === 'thought') {
      const inline = inlineKeywordIn(current.slice(mark.end));
      if (inline?.keyword === 'final_answer' || inline?.keyword === 'action')
        found = { keyword: inline.keyword, end: mark.end + inline.end };
    }
    if (!found) return undefined;
    if (found.keyword === 'action') return 'stop';
    return !whole && found.end >= current.length ? 'wait' : found.end;
  }

  function answer(): string {
    if (!begun) {
      while (sent < text.length && /\s/.test(text[sent])) {
        if (text[sent] === '\n') {
          firstLine = false;
          line = sent + 1;
        }
        sent += 1;
      }
      if (sent === text.length) return '';
      begun = true;
    }
    for (;;) {
      const newline = text.indexOf('\n', line);
      const current = text.slice(line, newline < 0 ? text.length : newline);
      if (!firstLine) {
        const ends = keywordAt(current) || (fenced && newline >= 0 && fenceLanguage(current) === '');
        if (ends) {
          phase = 'done';
          return release(line);
        }
        if (newline < 0 && (mayBecomeKeyword(current) || (fenced && mayBecomeFence(current)))) return release(line);
      }
      if (newline < 0) return release(text.length);
      line = newline + 1;
      firstLine = false;
    }
  }

  return {
    push(piece) {
      text += piece;
      if (phase === 'seek') return seek();
      return phase === 'answer' ? answer() : '';
    },
    endWithCalls: () => '',
  };
}
