import {
  type Message,
  type ModelResponse,
  parseJsonLenient,
  type ReplyHabit,
  type Step,
  type ToolCall,
} from '../../core/index.js';
import { CALL_MARKERS, TAG_CALL } from '../calls/call-markers.js';
import { callsStep, readToolCalls, type ToolCallsRead } from '../calls/read-tool-calls.js';
import type { Protocol, ReadContext, ReadReply } from '../protocol.js';
import { parseReAct } from '../react/parse-react.js';
import { readActionObject } from '../shared/call-syntax.js';
import { extractJson } from '../shared/json.js';
import { splitSections } from '../shared/keywords.js';
import { fill, renderCorrection, renderSystemPrompt } from '../shared/prompt-template.js';
import { readNativeCalls, readParsedStep } from '../shared/read-reply.js';
import { hasTokenCall, stripSpecialTokens, stripThink } from '../shared/special-tokens.js';
import { nativePrompt } from './prompt.js';

/**
 * The native protocol: tools go in the request's `tools` field and the provider returns structured
 * tool calls. Replies without tool calls whose text is still an action (small local models) are read
 * as that action; other text is the final answer. Results go back as one `tool` message per call.
 */
export const nativeProtocol: Protocol = {
  name: 'native',
  systemPrompt: (ctx) => renderSystemPrompt(nativePrompt[ctx.language], ctx),
  requestTools: (ctx) => (ctx.tools.length > 0 ? ctx.tools : undefined),
  readReply: readNativeReply,
  stepMessages: (step, language) =>
    nativeStepMessages(step, (reason) => fill(nativePrompt[language].correction, { reason })),
  correction: (reason, language, detail) =>
    renderCorrection(nativePrompt[language].correction, reason, language, detail),
  finalAnswerRequest: (language) => nativePrompt[language].finalAnswerRequest,
};

const WORDS = /[\p{L}\p{N}]/u;
const TAGS = /<[^<>\n]{0,60}>/g;
const TOKEN_THEN_JSON = /<\|[a-z_]{1,30}\|>\s*[[{]/;
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
function readNativeReply(response: ModelResponse, context?: ReadContext): ReadReply {
  if (response.toolCalls && response.toolCalls.length > 0) return readNativeCalls(response);
  const raw = response.text ?? '';
  // A call the server should have returned as a tool call, left in the text: read it as one.
  const found = readToolCalls(raw, { tools: context?.tools });
  if (found.calls.length > 0 && !quotedJson(found, raw)) {
    const habits: ReplyHabit[] = found.habits.includes('special_tokens')
      ? found.habits
      : [...found.habits, 'special_tokens'];
    return readParsedStep(callsStep({ ...found, habits }), response);
  }
  if (found.problem) return readParsedStep({ type: 'invalid', reason: found.problem, raw }, response);
  if (hasTokenCall(raw)) return readParsedStep(parseReAct(raw), response);
  const { text, thought } = stripThink(stripSpecialTokens(raw).text);
  if (looksLikeTextAction(text)) {
    const step = parseReAct(raw);
    if (step.type !== 'invalid' || TAG_CALL.test(text)) return readParsedStep(step, response);
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
  return thought ? { type: 'final', thought, answer: text } : { type: 'final', answer: text };
}

/**
 * JSON calls count only when the reply opens with the JSON: an answer that quotes a JSON call
 * ("Call it like this: {…}") stays an answer.
 */
function quotedJson(found: ToolCallsRead, raw: string): boolean {
  if (found.formats.length !== 1 || found.formats[0] !== 'json') return false;
  // JSON right after a chat-template token is the model's own call format, not a quote.
  if (TOKEN_THEN_JSON.test(raw)) return false;
  const { text } = stripThink(stripSpecialTokens(raw).text);
  const span = extractJson(text);
  // A reply that opens with the call makes it (nothing before but fences, tags and punctuation);
  // notes after it do not undo that.
  const start = span?.start ?? text.search(/[[{]/);
  if (start >= 0 && !WORDS.test(text.slice(0, Math.min(start, 400)).replace(CALL_MARKERS, '').replace(TAGS, ''))) {
    return false;
  }
  if (!span) return true;
  return (text.slice(0, span.start) + text.slice(span.end)).replace(CALL_MARKERS, '').trim() !== '';
}

function looksLikeTextAction(text: string): boolean {
  if (!ACTION_CHARS.test(text)) return false;
  if (TAG_CALL.test(text)) return true;
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

/**
 * The messages that record a native step: the assistant turn with its tool calls, then exactly one
 * `tool` message per call, in the same order, so a call is never separated from its result (a call
 * that did not run still gets a result saying so). Warnings belong inside the tool outputs (the loop
 * appends them there), so no message can come between a call and its result. Notes come last.
 */
function nativeStepMessages(step: Step, correction: (reason: string) => string): Message[] {
  const notes = step.notes ?? [];
  if (step.kind === 'final') {
    return [assistantTurn(step, { role: 'assistant', content: step.raw || step.answer || '' }), ...notes];
  }
  if (step.kind === 'invalid') {
    const content = step.observation ?? correction(step.invalidReason ?? 'The reply could not be used.');
    return [
      assistantTurn(step, { role: 'assistant', content: step.raw || '(empty reply)' }),
      { role: 'user', content },
      ...notes,
    ];
  }
  const calls = callsOf(step);
  const results: Message[] = calls.map((call) => {
    const record = step.toolCalls.find((r) => r.id === call.id);
    return {
      role: 'tool',
      toolCallId: call.id,
      name: call.name,
      content: !record
        ? 'This call was not run.'
        : record.media
          ? [{ type: 'text', text: record.output }, ...record.media]
          : record.output,
    };
  });
  return [assistantTurn(step, { role: 'assistant', content: step.raw, toolCalls: calls }), ...results, ...notes];
}

/**
 * The step's assistant turn with its reasoning: it goes back with its turn (Anthropic rejects a tool-use
 * turn without its thinking blocks), and so do the provider's own items (a compaction item, a hosted
 * tool search), exactly as they came. Set on the literal, not spread into it: a spread copy is slow to
 * make and to read on Node 20, and every later step's request reads these messages (docs/loop.md).
 */
function assistantTurn(step: Step, turn: AssistantMessage): AssistantMessage {
  if (step.reasoning?.length) turn.reasoning = step.reasoning;
  if (step.providerItems?.length) turn.providerItems = step.providerItems;
  return turn;
}

type AssistantMessage = Extract<Message, { role: 'assistant' }>;

/** The calls as the model sent them, or rebuilt from the records when they were read out of text. */
function callsOf(step: Step): ToolCall[] {
  if (step.rawToolCalls && step.rawToolCalls.length > 0) return step.rawToolCalls;
  return step.toolCalls.map((r) => ({
    id: r.id,
    name: r.name,
    arguments: typeof r.input === 'string' ? r.input : JSON.stringify(r.input ?? {}),
  }));
}
