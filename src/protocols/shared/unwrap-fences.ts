import type { ReplyHabit } from '../../core/index.js';
import { LINE_KEYWORD } from './normalize-keywords.js';

/** A reply with the code fences around its ReAct lines taken away. */
export interface FencesUnwrapped {
  text: string;
  habits: ReplyHabit[];
}

const FENCE_LINE = /^[ \t]*```[ \t]*([\w+-]*)[ \t]*$/;
const JSON_LANGS = new Set(['json', 'json5', 'jsonc', 'javascript', 'js', 'tool_call', 'tool_code']);

/**
 * Removes the fence lines of code blocks that hold the reply's ReAct lines themselves (```` ``` ````
 * or ```` ```text ```` around `Thought: … Action Input: …`), so the closing fence never becomes part
 * of an input or an answer. Only a fence whose first line is a ReAct keyword is unwrapped: a fenced
 * JSON input or a code block inside a final answer is left as it is. Fences inside the unwrapped
 * block that open with a language (```json) are matched with their own closer.
 */
export function unwrapFences(text: string): FencesUnwrapped {
  if (!text.includes('```')) return { text, habits: [] };
  const lines = text.split('\n');
  const drop = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE_LINE.exec(lines[i]);
    if (!open || JSON_LANGS.has(open[1].toLowerCase())) continue;
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
