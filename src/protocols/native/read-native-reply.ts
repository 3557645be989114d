import { type ModelResponse, parseJsonLenient } from '../../core/index.js';
import type { ReadReply } from '../protocol.js';
import { parseReAct } from '../react/parse-react.js';
import { CALL_MARKERS, readActionObject, readPythonicCalls } from '../shared/call-syntax.js';
import { extractJson } from '../shared/json.js';
import { splitSections } from '../shared/keywords.js';
import { readNativeCalls, readParsedStep } from '../shared/read-parsed-step.js';
import { hasTokenCall, stripSpecialTokens, stripThink } from '../shared/special-tokens.js';

const CALL_SYNTAX = /^[\s`*]*[\p{L}\p{N}_.-]+\s*[[(]/u;
/** Every text action needs one of these: a tag, a call's brackets, a keyword's colon or JSON. */
const ACTION_CHARS = /[<([{:：]/;

/**
 * Reads a native reply: provider tool calls win (ids kept, strict JSON arguments read). A reply with no
 * tool calls whose text is an action anyway (a `<tool_call>` tag, a ReAct `Action:`, or a reply that
 * is nothing but a JSON action, as small local models write) is read as that action; any other text
 * is the final answer. Text with ReAct keywords that do not make a readable action ("**Action:**
 * restart the server" in a runbook) stays an answer: only a broken tag is reported invalid.
 */
export function readNativeReply(response: ModelResponse): ReadReply {
  if (response.toolCalls && response.toolCalls.length > 0) return readNativeCalls(response);
  const raw = response.text ?? '';
  if (hasTokenCall(raw)) return readParsedStep(parseReAct(raw), response);
  const { text, thought } = stripThink(stripSpecialTokens(raw).text);
  if (looksLikeTextAction(text)) {
    const step = parseReAct(raw);
    if (step.type !== 'invalid' || /<tool_call>|<function=/i.test(text)) return readParsedStep(step, response);
  }
  if (text === '') {
    return {
      type: 'invalid',
      reason: thought
        ? 'The reply held only reasoning and no tool call or answer. After thinking, call a tool or answer.'
        : 'The reply was empty. Call a tool or reply with your answer.',
      raw,
    };
  }
  return { type: 'final', ...(thought ? { thought } : {}), answer: text };
}

function looksLikeTextAction(text: string): boolean {
  if (!ACTION_CHARS.test(text)) return false;
  if (/<tool_call>|<function=/i.test(text) || readPythonicCalls(text)) return true;
  // A lone "Action:" line is too common in prose; a ReAct action needs its input or call syntax.
  const { sections } = splitSections(text);
  if (sections.some((s) => s.keyword === 'action_input' || s.keyword === 'final_answer')) return true;
  if (sections.some((s) => s.keyword === 'action' && CALL_SYNTAX.test(s.content))) return true;
  // Only a reply that is the JSON and nothing more: an answer that quotes JSON stays an answer.
  const span = extractJson(text);
  if (!span) return false;
  const rest = (text.slice(0, span.start) + text.slice(span.end)).replace(CALL_MARKERS, '').trim();
  if (rest !== '') return false;
  const parsed = parseJsonLenient(span.json);
  if (!parsed.ok) return false;
  return readActionObject(parsed.value, { raw: text, truncated: span.truncated })?.type === 'action';
}
