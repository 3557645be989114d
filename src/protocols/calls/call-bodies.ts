/**
 * The readers for a call's body, one per `CallBody` kind of the format table, plus the pieces they
 * share: JSON values in every envelope (through `readActionObject`), Python calls (through the literal
 * reader) and parameter tags (`<parameter=x>`, `<parameter name="x">`, `<param …>`, `<arg_key>`).
 */
import { type ActionInput, parseJsonLenient, type ReplyHabit, type TextToolCall } from '../../core/index.js';
import { readActionObject } from '../shared/call-syntax.js';
import { extractJson, hasRawControlInString } from '../shared/json.js';
import { readPythonCalls, readPythonValue } from './python-literal.js';

/** What a body held: its calls, or why the calls in it could not be read. */
export interface BodyRead {
  calls: TextToolCall[];
  habits: ReplyHabit[];
  repaired: boolean;
  /** A call was there but could not be read: what the model should fix. */
  problem?: string;
  /** Reasoning written inside the call (a JSON `thought` key). */
  thought?: string;
}

export const NO_CALLS: BodyRead = { calls: [], habits: [], repaired: false };

/** Most calls read from one reply: a bound on work, far above any real reply. */
export const MAX_CALLS = 64;

/** A tool name as models write one: letters of any script, digits, `_ - . /` (MCP's alphabet). */
const NAME = /^[\p{L}\p{M}\p{N}_\-./]{1,128}$/u;

/** The name without a recipient prefix (`functions.x`), an index suffix (`x:0`) or quotes. */
export function cleanName(raw: string): string | undefined {
  let name = raw.trim().replace(/^["'`]+|["'`]+$/g, '');
  // Recipient prefixes: OpenAI's `functions.`, Gemini's `default_api.` in tool_code blocks.
  if (name.startsWith('functions.')) name = name.slice('functions.'.length);
  else if (name.startsWith('default_api.')) name = name.slice('default_api.'.length);
  const colon = name.lastIndexOf(':');
  if (colon > 0 && /^\d+$/.test(name.slice(colon + 1))) name = name.slice(0, colon);
  return NAME.test(name) ? name : undefined;
}

/** Strips one ``` fence around a whole body (```json, ```python, ```tool_code…). */
export function unfence(text: string): string {
  const t = text.trim();
  if (!t.startsWith('```')) return t;
  const newline = t.indexOf('\n');
  if (newline < 0) return t;
  const end = t.endsWith('```') && t.length > newline + 3 ? t.length - 3 : t.length;
  return t.slice(newline + 1, end).trim();
}

/**
 * Every call in JSON written in `text`: the JSON values one after another (a list, `{…}; {…}`, one per
 * line), each read in any envelope. Values that are not calls are skipped; a call cut off inside a
 * string is a problem, since its arguments cannot be trusted.
 */
export function readJsonCalls(text: string): BodyRead {
  const calls: TextToolCall[] = [];
  const habits: ReplyHabit[] = [];
  let repaired = false;
  let thought: string | undefined;
  let rest = text;
  for (let spans = 0; spans < MAX_CALLS && calls.length < MAX_CALLS; spans++) {
    const span = extractJson(rest);
    if (!span) break;
    const parsed = parseJsonLenient(span.json);
    if (parsed.ok) {
      const step = readActionObject(parsed.value, { raw: text, truncated: span.truncated });
      if (step?.type === 'action') {
        if (span.cutInString) {
          return {
            ...NO_CALLS,
            problem: 'The tool call was cut off in the middle of a string. Send the whole tool call again.',
          };
        }
        for (const call of step.calls ?? [{ name: step.tool, input: step.input }]) calls.push(call);
        thought ??= step.thought;
        for (const habit of step.habits ?? []) if (!habits.includes(habit)) habits.push(habit);
        repaired ||= parsed.repaired || span.truncated || step.repaired === true;
        if (parsed.repaired && hasRawControlInString(span.json) && !habits.includes('structured_input')) {
          habits.push('structured_input');
        }
      }
    } else if (span.json.startsWith('{') || span.json.startsWith('[')) {
      // Python dicts that jsonrepair cannot read (tuples, escapes): the literal reader can.
      const value = readPythonValue(span.json);
      const step = value && readActionObject(value.value, { raw: text });
      if (step?.type === 'action')
        for (const call of step.calls ?? [{ name: step.tool, input: step.input }]) calls.push(call);
    }
    if (span.end >= rest.length) break;
    rest = rest.slice(span.end);
  }
  return thought ? { calls, habits, repaired, thought } : { calls, habits, repaired };
}

/** A body that holds whole calls (the `calls` kind), trying each syntax in turn. */
export function readCallsBody(body: string, quotes: readonly string[]): BodyRead {
  const text = unfence(body);
  if (text === '') return NO_CALLS;
  if (text.includes('<arg_key>')) return readGlmBody(text);
  const first = text[0];
  if (first === '{' || (first === '[' && /^\[\s*[{[]/.test(text))) {
    const json = readJsonCalls(text);
    if (json.calls.length > 0 || json.problem) return json;
  }
  const python = readPythonCalls(text, quotes);
  if (python?.length) return { calls: python.map(asCall), habits: [], repaired: false };
  return readNamedBody(text, [], quotes);
}

/** `name` then arguments: `name[ARGS]{…}` (Mistral), `name\n{…}`, `name{…}`, `name:{…}`. */
function readNamedBody(text: string, separators: readonly string[], quotes: readonly string[]): BodyRead {
  for (const sep of ['[ARGS]', ...separators]) {
    const at = text.indexOf(sep);
    if (at > 0) return oneCall(text.slice(0, at).replace(/\[CALL_ID\].*$/s, ''), text.slice(at + sep.length), quotes);
  }
  const open = text.search(/[{\n(]/);
  if (open <= 0) return NO_CALLS;
  return oneCall(text.slice(0, open).replace(/:$/, ''), text.slice(open), quotes);
}

/** The `named` kind: DeepSeek/Kimi `name<sep>{…}`, DeepSeek V3's `function<sep>name\n```json…`, `call:name{…}`. */
export function readNamedTokens(body: string, separators: readonly string[], quotes: readonly string[]): BodyRead {
  const text = body.trim();
  if (text.startsWith('call:')) {
    const rest = text.slice(5);
    const open = rest.search(/[{(]/);
    if (open < 0) return oneCall(rest, '', quotes);
    return oneCall(rest.slice(0, open), rest.slice(open), quotes);
  }
  for (const sep of separators) {
    const at = text.indexOf(sep);
    if (at < 0) continue;
    const left = text.slice(0, at).trim();
    const right = text.slice(at + sep.length);
    if (left === 'function') {
      const newline = right.indexOf('\n');
      return oneCall(
        newline < 0 ? right : right.slice(0, newline),
        newline < 0 ? '' : right.slice(newline + 1),
        quotes,
      );
    }
    return oneCall(left, right, quotes);
  }
  return readCallsBody(text, quotes);
}

/** One call whose name and arguments text are known. */
export function oneCall(rawName: string, args: string, quotes: readonly string[]): BodyRead {
  const name = cleanName(rawName);
  if (!name) return NO_CALLS;
  const read = readArgumentsText(args, quotes);
  if (read.problem) return { ...NO_CALLS, problem: read.problem.replace('{name}', name) };
  return { calls: [{ name, input: read.input }], habits: [], repaired: read.repaired };
}

interface ArgumentsRead {
  input: ActionInput;
  repaired: boolean;
  problem?: string;
}

/** Arguments given as text: parameter tags, a JSON object, Python keyword arguments, or a bare value. */
export function readArgumentsText(raw: string, quotes: readonly string[]): ArgumentsRead {
  const text = unfence(raw);
  if (text === '') return { input: {}, repaired: false };
  if (/<(?:parameter|param|arg_key)\b/.test(text)) return { input: readParameterTags(text), repaired: false };
  if (text.startsWith('{') || text.startsWith('[')) {
    const python = quotes.length > 0 ? readPythonValue(text, quotes) : undefined;
    if (python && isInput(python.value)) return { input: python.value, repaired: false };
    const span = extractJson(text);
    if (span?.cutInString) {
      return {
        input: {},
        repaired: false,
        problem:
          'The arguments of the "{name}" call were cut off in the middle of a string. Send the whole call again.',
      };
    }
    const parsed = span ? parseJsonLenient(span.json) : undefined;
    if (parsed?.ok && isInput(parsed.value))
      return { input: parsed.value, repaired: parsed.repaired || !!span?.truncated };
    const literal = readPythonValue(text, quotes);
    if (literal && isInput(literal.value)) return { input: literal.value, repaired: false };
    return {
      input: {},
      repaired: false,
      problem: 'The arguments of the "{name}" call could not be read. Send them as one JSON object.',
    };
  }
  if (text.startsWith('(')) {
    const call = readPythonCalls(`f${text}`, quotes);
    if (call?.length === 1) return { input: call[0].input, repaired: false };
  }
  const keywords = readPythonCalls(`f(${text})`, quotes);
  if (keywords?.length === 1) return { input: keywords[0].input, repaired: false };
  return { input: text, repaired: false };
}

function isInput(value: unknown): value is ActionInput {
  return typeof value === 'object' && value !== null;
}

function asCall(call: { name: string; input: ActionInput }): TextToolCall {
  return { name: call.name, input: call.input };
}

/** GLM-4.5 / 4.6: `name\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>…`. */
function readGlmBody(text: string): BodyRead {
  const at = text.indexOf('<arg_key>');
  const name = cleanName(text.slice(0, at));
  if (!name) return NO_CALLS;
  return { calls: [{ name, input: readParameterTags(text.slice(at)) }], habits: [], repaired: false };
}

const PARAMETER_OPEN = /<(parameter|param|arg_key)\b([^<>]{0,400})>/g;

/**
 * Parameter tags into an object: Qwen3-Coder `<parameter=x>v</parameter>`, Anthropic-style
 * `<parameter name="x">v</parameter>`, BFCL's `<param name="x" type="t">v</param>` and
 * `<param name="x" value="v"/>`, GLM-4.5 `<arg_key>x</arg_key><arg_value>v</arg_value>`.
 * Values that are JSON (numbers, booleans, objects, arrays) are read as JSON; other text stays text.
 */
export function readParameterTags(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  PARAMETER_OPEN.lastIndex = 0;
  for (let m = PARAMETER_OPEN.exec(text); m; m = PARAMETER_OPEN.exec(text)) {
    const [open, tag, attributes] = m;
    const start = m.index + open.length;
    if (tag === 'arg_key') {
      const keyEnd = text.indexOf('</arg_key>', start);
      if (keyEnd < 0) break;
      const valueOpen = text.indexOf('<arg_value>', keyEnd);
      const valueEnd = valueOpen < 0 ? -1 : text.indexOf('</arg_value>', valueOpen);
      const value = valueOpen < 0 ? '' : text.slice(valueOpen + 11, valueEnd < 0 ? text.length : valueEnd);
      out[text.slice(start, keyEnd).trim()] = parameterValue(value, undefined);
      PARAMETER_OPEN.lastIndex = valueEnd < 0 ? text.length : valueEnd;
      continue;
    }
    const name = attributes.startsWith('=')
      ? attributes
          .slice(1)
          .trim()
          .replace(/^["']|["']$/g, '')
      : attribute(attributes, 'name');
    if (!name) continue;
    const type = attribute(attributes, 'type');
    if (attributes.trimEnd().endsWith('/')) {
      out[name] = parameterValue(attribute(attributes, 'value') ?? '', type);
      continue;
    }
    const close = text.indexOf(`</${tag}>`, start);
    const end = close < 0 ? nextOpen(text, start, tag) : close;
    out[name] = parameterValue(text.slice(start, end), type);
    PARAMETER_OPEN.lastIndex = close < 0 ? end : close + tag.length + 3;
  }
  return out;
}

function nextOpen(text: string, from: number, tag: string): number {
  const next = text.indexOf(`<${tag}`, from);
  return next < 0 ? text.length : next;
}

function attribute(attributes: string, key: string): string | undefined {
  const match = new RegExp(`\\b${key}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attributes);
  return match ? (match[1] ?? match[2]) : undefined;
}

/** A parameter's text as a value: JSON when it is JSON (and the type, if stated, is not string). */
function parameterValue(raw: string, type: string | undefined): unknown {
  // Qwen3-Coder puts each value on its own lines: one newline either side is layout.
  const text = raw.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
  if (type === 'string' || type === 'str') return text;
  const t = text.trim();
  if (t === '') return text;
  const first = t[0];
  if (
    first === '{' ||
    first === '[' ||
    first === '-' ||
    (first >= '0' && first <= '9') ||
    /^(?:true|false|null)$/.test(t)
  ) {
    const parsed = parseJsonLenient(t, { repair: false });
    if (parsed.ok) return parsed.value;
    const literal = readPythonValue(t);
    if (literal && typeof literal.value !== 'string') return literal.value;
  }
  if (/^(?:True|False|None)$/.test(t)) return t === 'None' ? null : t === 'True';
  return text;
}
