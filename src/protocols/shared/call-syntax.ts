/**
 * The shapes of one action shared by the protocols: a JSON object in any of the common action shapes,
 * and a call on the Action line (`search[q]`, `search(q="x")`). Calls in a model's own formats (tags,
 * tokens, pythonic lists) are `readToolCalls`'s (calls/read-tool-calls.ts).
 */
import { type ActionInput, type ParsedStep, parseJsonLenient } from '../../core/index.js';
import { CALL_MARKERS } from '../calls/call-markers.js';
import { invalid, joinActions, withExtras, withHabits } from './build-step.js';
import { closingQuote, coerceInput, coerceValue, isRecord } from './json.js';
import { isFinalName, spellingsOf, splitSections, squash } from './keywords.js';

/** How the JSON was obtained, which changes what a missing field means. */
export interface ReadObjectOptions {
  /** The raw reply, for invalid results. */
  raw: string;
  /** The JSON was cut off: a missing input means it was lost, not that there is none. */
  truncated?: boolean;
}

const INPUT_KEYS = [
  ...spellingsOf('action_input').map(squash),
  'input',
  'toolinput',
  'arguments',
  'args',
  'parameters',
  'params',
];
const THOUGHT_KEYS = [...spellingsOf('thought'), 'reasoning', 'reason', 'think'];

/**
 * Reads a parsed JSON value as a step, in every shape models use:
 * `{"thought", "action", "action_input"}`, `{"final_answer": …}`, `"action": "final"`/`"Final Answer"`,
 * function-call style `{"name", "arguments"|"parameters"}`, `{"tool", "tool_input"}`, OpenAI-style
 * `{"function": {…}}`/`{"tool_calls": […]}`, AutoGPT `{"thoughts", "command": {"name", "args"}}`, and
 * arrays (the first action is taken). Returns undefined when the value does not look like a step at all.
 */
export function readActionObject(value: unknown, options: ReadObjectOptions): ParsedStep | undefined {
  if (Array.isArray(value)) return readActionList(value, options);
  if (!isRecord(value)) return undefined;
  const fields = new Map(Object.entries(value).map(([k, v]) => [squash(k), v]));
  const thought = readThought(fields);
  const nested =
    fields.get('function') ??
    fields.get('functioncall') ??
    fields.get('toolcall') ??
    fields.get('toolcalls') ??
    fields.get('command');
  if (nested !== undefined && (isRecord(nested) || Array.isArray(nested))) {
    const step = readActionObject(nested, options);
    if (step) return withHabits(withExtras(step, thought, false), ['json_envelope']);
  }
  if (fields.has('finalanswer')) return final(fields.get('finalanswer'), thought, options);
  const named = fields.get('function');
  const action =
    fields.get('action') ??
    fields.get('tool') ??
    fields.get('toolname') ??
    fields.get('name') ??
    (typeof named === 'string' ? named : undefined);
  if (isRecord(action) || Array.isArray(action)) {
    const step = readActionObject(action, options);
    if (step) return withExtras(step, thought, false);
  }
  if (typeof action === 'string' && isActionShaped(fields)) {
    const input = INPUT_KEYS.map((k) => fields.get(k)).find((v) => v !== undefined);
    if (isFinalName(action)) return final(input ?? fields.get('answer') ?? '', thought, options);
    const step = tool(action.trim(), input, thought, options);
    // The prompted shape is {"action", "action_input"}; a function-call shape is another habit.
    return fields.has('action') && (input === undefined || fields.has('actioninput'))
      ? step
      : withHabits(step, ['json_envelope']);
  }
  if (fields.has('answer') && !fields.has('name')) return final(fields.get('answer'), thought, options);
  return undefined;
}

/**
 * A list of actions is a reply with several calls, in order (the first is the step's `tool`/`input`);
 * a list with no action is read as its first readable item (a final answer in a list).
 */
function readActionList(items: unknown[], options: ReadObjectOptions): ParsedStep | undefined {
  let first: ParsedStep | undefined;
  const actions: Extract<ParsedStep, { type: 'action' }>[] = [];
  for (const item of items) {
    const step = readActionObject(item, options);
    if (!step) continue;
    first ??= step;
    if (step.type === 'action') actions.push(step);
  }
  return actions.length > 0 ? joinActions(actions) : first;
}

/** `name` alone is too common a key to mean a call; it needs arguments beside it. */
function isActionShaped(fields: Map<string, unknown>): boolean {
  if (fields.has('action') || fields.has('tool') || fields.has('toolname')) return true;
  if (typeof fields.get('function') === 'string' && !fields.has('name')) return INPUT_KEYS.some((k) => fields.has(k));
  return INPUT_KEYS.some((k) => fields.has(k));
}

function tool(name: string, input: unknown, thought: string | undefined, options: ReadObjectOptions): ParsedStep {
  if (name === '') return invalid(options.raw, 'The action name is empty. Put the tool name in "action".');
  if ((input === undefined || input === null) && options.truncated) {
    return invalid(
      options.raw,
      `The reply was cut off before the input of "${name}" was written. Send the whole JSON object again, with "action_input".`,
    );
  }
  const coerced = coerceValue(input);
  if (!coerced.ok) return invalid(options.raw, coerced.reason);
  const step = withExtras({ type: 'action', tool: name, input: coerced.input }, thought, coerced.repaired);
  return withHabits(step, coerced.habits ?? []);
}

function final(value: unknown, thought: string | undefined, options: ReadObjectOptions): ParsedStep {
  const answer = typeof value === 'string' ? value.trim() : JSON.stringify(value ?? '');
  if (answer === '') {
    return invalid(
      options.raw,
      'The final answer is empty. Put the answer text in "action_input" (or "final_answer").',
    );
  }
  return withExtras({ type: 'final', answer }, thought, false);
}

function readThought(fields: Map<string, unknown>): string | undefined {
  for (const key of THOUGHT_KEYS) {
    const value = fields.get(key);
    if (typeof value === 'string' && value.trim()) return value.trim();
    if (isRecord(value) && typeof value.text === 'string') return value.text.trim();
  }
  return undefined;
}

/** A call written on the Action line itself: `search[query]` or `search("query")`. */
export interface ActionCall {
  tool: string;
  input: ActionInput;
  repaired: boolean;
  /** Nothing between the brackets (`search()`): the input may follow on an `Action Input:` line. */
  empty: boolean;
  /** The brackets hold a note on the name (`search [tool]`, `search（工具）`), not its input. */
  annotation: boolean;
  /** Text after the closing bracket (`Finish[Paris] because…`): commentary, never the input. */
  after: string;
}

/** Each opening bracket models write after a tool name, and its closer (full-width ones in Chinese replies). */
const BRACKETS: Record<string, string> = { '[': ']', '(': ')', '（': '）', '【': '】' };
const CALL_HEAD = /^([\p{L}\p{N}_.\-/]+)\s*([[(（【])/u;
const KWARG = /([\p{L}_][\p{L}\p{N}_]*)\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*'|[^,]+)/gu;
/** What the brackets after a name hold when they name its kind: `[tool]`, `(the web search tool)`, `（工具）`. */
const ANNOTATION = /^(?:(?:the|a|an)\s+)?(?:[\w\s-]*\s)?(?:tool|tools|function|api|plugin)$|^(?:工具|函数|插件|接口)$/i;

/**
 * Reads the call forms models write on the Action line: the ReAct paper's `Search[Colorado orogeny]`
 * and the function style `search("query")`, `search(query="x", limit=3)`, `search({"query": "x"})`,
 * with full-width brackets too (`search（"北京"）`). The input ends at the bracket that closes the
 * opening one (`Finish[Paris] because…` answers `Paris`); a missing closing bracket (cut-off reply)
 * is tolerated and marked repaired.
 */
export function parseActionCall(line: string): ActionCall | undefined {
  const text = line.trim();
  const head = CALL_HEAD.exec(text);
  if (!head) return undefined;
  const open = head[2];
  const from = head[0].length;
  const quoted = closingBracket(text, from, open, BRACKETS[open], true);
  // An apostrophe in a bare argument (`search(q=Don't)`) is no quote: read it again without quotes.
  const close = quoted < 0 ? closingBracket(text, from, open, BRACKETS[open], false) : quoted;
  const body = close < 0 ? text.slice(from) : text.slice(from, close);
  const after = close < 0 ? '' : text.slice(close + 1).trim();
  const square = open === '[' || open === '【';
  const annotation = ANNOTATION.test(body.trim());
  const input = square ? coerceInput(body) : undefined;
  return {
    tool: head[1],
    input: input ? (input.ok ? input.input : body.trim()) : readArguments(body),
    repaired: close < 0,
    empty: body.trim() === '',
    annotation,
    after,
  };
}

/**
 * Where the bracket opened just before `from` closes: brackets of the same kind nest, and inside a
 * function call's parentheses quoted strings are skipped (`search(q="a)b")`). -1 when it never closes.
 */
function closingBracket(text: string, from: number, open: string, close: string, quoted: boolean): number {
  const quotes = quoted && (open === '(' || open === '（');
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quotes && (c === '"' || c === "'")) {
      i = closingQuote(text, i);
      if (i < 0) return -1;
    } else if (c === open) depth++;
    else if (c === close && --depth === 0) return i;
  }
  return -1;
}

function readArguments(args: string): ActionInput {
  const text = args.trim();
  if (text === '') return {};
  if (/^("(?:[^"\\]|\\.)*"|'[^']*')$/.test(text)) {
    const value = parseJsonLenient(text);
    return value.ok && typeof value.value === 'string' ? value.value : text.slice(1, -1);
  }
  if (/^[\p{L}_][\p{L}\p{N}_]*\s*=/u.test(text)) {
    const object: Record<string, unknown> = {};
    for (const m of text.matchAll(KWARG)) {
      const parsed = parseJsonLenient(m[2].trim());
      object[m[1]] = parsed.ok ? parsed.value : m[2].trim();
    }
    return object;
  }
  const input = coerceInput(text);
  return input.ok ? input.input : text;
}

/** The reasoning in the text before a call: prose and Thought sections, without their keywords. */
export function reasoningIn(text: string): string | undefined {
  const { preamble, sections } = splitSections(text.replace(CALL_MARKERS, ''));
  const parts = [preamble, ...sections.filter((s) => s.keyword === 'thought').map((s) => s.content)];
  return (
    parts
      .map((p) => p.trim())
      .filter(Boolean)
      .join('\n\n') || undefined
  );
}
