/**
 * The call markers, the one table of them: what in a reply shows a call written as text, read off the
 * formats' rows (`call-formats.ts`) rather than spelled again. The native, JSON, ReAct and code
 * protocols and the stream readers (`protocols/stream/`) all test replies with what is defined here.
 */
import { type CallFormat, MARKED_FORMATS } from './call-formats.js';

function format(id: string): CallFormat {
  const row = MARKED_FORMATS.find((f) => f.id === id);
  if (!row) throw new Error(`no call format "${id}"`);
  return row;
}

const literal = (marker: string) => marker.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const anyOf = (markers: readonly string[], flags: string) => new RegExp(markers.map(literal).join('|'), flags);

/** The tags that open a call in any protocol's reply: Hermes/Qwen `<tool_call>` and Llama's `<function=`. */
export const TAG_OPENERS: readonly string[] = [format('hermes').open[0], ...format('function_tag').open];

/** A call tag (`<tool_call>`, `<function=`) anywhere in a reply. */
export const TAG_CALL = anyOf(TAG_OPENERS, 'i');

/**
 * What opens a call that a streamed answer must never show: a call tag, any chat-template token
 * (`<|…|>`, DeepSeek's `<｜…｜>`, every token format's calls start so) and Mistral's `[TOOL_CALLS]`.
 */
export const CALL_STARTS: readonly string[] = [...TAG_OPENERS, '<|', '<｜', ...format('mistral').open];

/** One of CALL_STARTS in a text. */
export const CALL_TAG = anyOf(CALL_STARTS, 'i');

/**
 * Markers models write around a call given as text: code fences, Mistral's `[TOOL_CALLS]` and
 * Llama's `<|python_tag|>`/`<|eom_id|>`/`<|eot_id|>` tokens. They are neither reasoning nor answer.
 */
export const CALL_MARKERS = new RegExp(
  [
    '```[\\w-]*',
    ...[...format('mistral').open, ...format('llama_python_tag').open, ...format('llama_python_tag').close].map(
      literal,
    ),
  ].join('|'),
  'g',
);

/** A fence line (```` ```json ````, ```` ```` ```` or `~~~`), with its language. */
export const FENCE_LINE = /^[ \t]*(?:`{3,}|~{3,})[ \t]*([\w+-]*)[ \t]*$/;

/** Fence languages whose block holds a call as JSON (or a tool-call block), not code or ReAct lines. */
export const JSON_FENCES: ReadonlySet<string> = new Set([
  'json',
  'json5',
  'jsonc',
  'javascript',
  'js',
  'tool_call',
  'tool_code',
]);
