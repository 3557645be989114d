import { isFinalName, squash } from '../shared/keywords.js';
import { createReactScanner } from './react-reply-scanner.js';
import { CALL_TAG, keywordAt, type ReplyScanner } from './reply-markers.js';

/** Keys whose string value names the action; keys whose string value is the answer once it is final. */
const ACTION_KEYS = new Set(['action', 'tool', 'toolname', 'name']);
const ANSWER_KEYS = new Set(['actioninput', 'answer']);
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };

/**
 * With the `json` protocol a reply is a JSON envelope, so only the string value of its answer goes out,
 * decoded as it streams: `"final_answer": "…"`, or `"action_input": "…"` (`"answer"`) once the same
 * object's `"action"` named the final answer. The envelope, the thought and a tool's input never do.
 * A reply written as ReAct (keyword lines before any JSON) is read as ReAct, as the parser reads it.
 * What cannot be told while streaming waits for the `final` event: an answer key before its
 * `"action"`, a non-string answer, a call in a tag.
 */
export function createJsonScanner(): ReplyScanner {
  let text = '';
  let pos = 0;
  let mode: 'prose' | 'json' | 'react' | 'done' = 'prose';
  let react: ReplyScanner | undefined;
  // The JSON read so far: nesting, the string being read and what it is, the top-level key it belongs to.
  let depth = 0;
  let inString: 'key' | 'action' | 'answer' | 'other' | undefined;
  let escaping = '';
  let value = '';
  let key = '';
  let expectKey = true;
  let final = false;
  let begun = false;
  /** The first half of a surrogate pair, sent with its second. */
  let pending = '';

  /** Before the JSON: a ReAct keyword line makes it a ReAct reply, a call tag a call. */
  function prose(): string {
    const brace = text.indexOf('{', pos);
    const before = text.slice(pos, brace < 0 ? text.lastIndexOf('\n') + 1 : brace);
    if (CALL_TAG.test(before)) mode = 'done';
    else if (before.split('\n').some((line) => keywordAt(line))) {
      mode = 'react';
      react = createReactScanner();
      return react.push(text);
    } else if (brace >= 0) {
      mode = 'json';
      pos = brace;
      return json();
    } else pos += before.length;
    return '';
  }

  function json(): string {
    let out = pending;
    pending = '';
    for (; pos < text.length && mode === 'json'; pos++) {
      const c = text[pos];
      if (inString) {
        const decoded = decode(c);
        if (decoded === undefined) continue;
        if (inString === 'answer') {
          if (!begun && /\s/.test(decoded)) continue;
          begun = true;
          out += decoded;
        } else value += decoded;
        continue;
      }
      if (c === '"') {
        inString = depth !== 1 ? 'other' : expectKey ? 'key' : stringKind();
        value = '';
      } else if (c === '{' || c === '[') depth += 1;
      else if (c === '}' || c === ']') {
        depth -= 1;
        if (depth === 0) mode = 'done';
      } else if (depth === 1 && c === ',') expectKey = true;
    }
    // A character written as two escapes (a surrogate pair) goes out whole.
    const last = out.charCodeAt(out.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      pending = out.slice(-1);
      out = out.slice(0, -1);
    }
    return out;
  }

  function stringKind(): 'action' | 'answer' | 'other' {
    if (ACTION_KEYS.has(key)) return 'action';
    return key === 'finalanswer' || (final && ANSWER_KEYS.has(key)) ? 'answer' : 'other';
  }

  /** The text one character of a string adds, or undefined (an escaping still arriving, the string's end). */
  function decode(c: string): string | undefined {
    if (escaping) {
      escaping += c;
      if (escaping[1] === 'u' && escaping.length < 6) return undefined;
      const sequence = escaping;
      escaping = '';
      if (sequence[1] === 'u') {
        const code = Number.parseInt(sequence.slice(2), 16);
        return Number.isNaN(code) ? sequence : String.fromCharCode(code);
      }
      return ESCAPES[sequence[1]] ?? sequence[1];
    }
    if (c === '\\') {
      escaping = c;
      return undefined;
    }
    if (c !== '"') return c;
    endString();
    return undefined;
  }

  function endString(): void {
    const kind = inString;
    inString = undefined;
    if (kind === 'key') {
      key = squash(value);
      expectKey = false;
    } else if (kind === 'action') final = isFinalName(value);
    else if (kind === 'answer') mode = 'done';
  }

  return {
    push(piece) {
      text += piece;
      if (mode === 'prose') return prose();
      if (mode === 'json') return json();
      return mode === 'react' && react ? react.push(piece) : '';
    },
    endWithCalls: () => '',
  };
}
