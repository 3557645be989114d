import { JSON_FENCES } from '../calls/call-markers.js';
import {
  CALL_TAG,
  fenceLanguage,
  keywordAt,
  mayBecomeFence,
  mayBecomeKeyword,
  type ReplyScanner,
  tagTail,
  thinkOpening,
  withoutTrailingSpace,
} from './reply-markers.js';

/** Fences whose block may be a call written as text (JSON or a tool-call block); others hold code. */
const CALL_FENCES = new Set(['', ...JSON_FENCES]);

/**
 * With the `native` protocol what the model says is the answer, so it goes out as it streams, except
 * what may be a call written as text, which the loop reads once the reply is whole:
 * - a reply that opens like one (a tag, JSON, a fence that may hold JSON, a ReAct keyword line, a
 *   tool's name and its bracket) is held until the reply ends;
 * - a line that becomes a keyword line, or a call tag, holds the reply from there on;
 * - a line that may still become one waits until it can be told (a keyword, a bracket, a few characters),
 *   and a `<think>` block at the start is never said.
 * Text beside real tool calls is speech: it all goes out when the reply ends with them.
 */
export function createNativeScanner(tools: readonly string[]): ReplyScanner {
  let text = '';
  /** Where the reply proper starts (after leading space and a reasoning block). */
  let from = 0;
  /** Where the line being read starts. */
  let line = 0;
  let sent = 0;
  let state: 'start' | 'think' | 'speech' | 'held' = 'start';
  let close = '';

  const release = (to: number): string => {
    // Spaces at the end wait for what follows them: the answer may end there.
    const end = withoutTrailingSpace(text, to);
    if (end <= sent) return '';
    const out = text.slice(Math.max(sent, from), end);
    sent = end;
    return out;
  };

  /** Decides, once it can, whether the reply opens as speech or as scaffolding. */
  function open(): void {
    while (from < text.length && /\s/.test(text[from])) from++;
    const head = text.slice(from);
    if (head === '') return;
    const think = thinkOpening(head);
    if (think === 'maybe') return;
    if (think) {
      state = 'think';
      close = think.close;
      from += think.open.length;
      return;
    }
    const newline = head.indexOf('\n');
    const first = newline < 0 ? head : head.slice(0, newline);
    if (/^[<{[]/.test(head) || keywordAt(first) || opensCall(first, tools)) state = 'held';
    else if (first.trimStart().startsWith('`') && mayBecomeFence(first)) {
      if (newline < 0) return;
      state = CALL_FENCES.has(fenceLanguage(first) ?? '') ? 'held' : 'speech';
    } else if (newline < 0 && (mayBecomeKeyword(first) || mayOpenCall(first, tools))) return;
    else state = 'speech';
    line = from;
  }

  /** Sends whole lines, and the line still arriving once it cannot become a keyword line or a call tag. */
  function speak(): string {
    for (;;) {
      const newline = text.indexOf('\n', line);
      const current = text.slice(line, newline < 0 ? text.length : newline);
      if (line > from && keywordAt(current)) {
        state = 'held';
        return release(line);
      }
      const tag = CALL_TAG.exec(current);
      if (tag) {
        state = 'held';
        return release(line + tag.index);
      }
      if (newline < 0) return line > from && mayBecomeKeyword(current) ? release(line) : release(tagTail(text, line));
      line = newline + 1;
    }
  }

  function read(): string {
    if (state === 'think') {
      const end = text.toLowerCase().indexOf(close, from);
      if (end < 0) return '';
      from = end + close.length;
      state = 'start';
    }
    if (state === 'start') open();
    return state === 'speech' ? speak() : '';
  }

  return {
    push(piece) {
      text += piece;
      return read();
    },
    endWithCalls() {
      if (state === 'think') return '';
      // The text said before the calls, whole (as a non-streamed reply keeps it).
      const out = text.slice(Math.max(sent, from));
      sent = text.length;
      state = 'held';
      return out;
    },
  };
}

/** True when `line` opens with one of the agent's tools called as text (`search(`, `search[`). */
function opensCall(line: string, tools: readonly string[]): boolean {
  const name = /^[`*\s]*([\p{L}\p{N}_.-]+)\s*[[(]/u.exec(line)?.[1];
  return name !== undefined && tools.includes(name);
}

/** True while `line` may still become one of the agent's tools called as text. */
function mayOpenCall(line: string, tools: readonly string[]): boolean {
  const head = line.replace(/^[`*\s]+/, '');
  const name = head.trimEnd();
  // Part of a name, or a whole name and the spaces before its bracket.
  return tools.some((tool) => (name === head && tool.startsWith(name)) || tool === name);
}
