/**
 * The one scanner for tool calls written in text. It reads the format table (`call-formats.ts`): marked
 * formats wherever their markers stand, in order, several per reply; when a reply has none, the
 * unmarked formats where they stand alone (a call fence, a whole line of calls, the whole reply).
 * Markers are found with `indexOf`, never with patterns, so a 100 kB reply costs a few linear passes.
 */
import type { ParsedStep, ReplyHabit, TextToolCall } from '../../core/index.js';
import { joinThoughts } from '../shared/build-step.js';
import { reasoningIn } from '../shared/call-syntax.js';
import { cutAtNextTurn, stripThink } from '../shared/special-tokens.js';
import {
  type BodyRead,
  cleanName,
  MAX_CALLS,
  oneCall,
  readCallsBody,
  readJsonCalls,
  readNamedTokens,
} from './call-bodies.js';
import { type CallFormat, MARKED_FORMATS, UNMARKED_FORMATS, type UnmarkedFormat } from './call-formats.js';
import { declinesCall } from './declined-call.js';
import { readCallStatement } from './python-literal.js';

/** What `readToolCalls` needs besides the text. */
export interface ReadToolCallsOptions {
  /**
   * The tools the model was given. A bare call (`get_weather(city="Paris")` on a line of its own among
   * prose) counts only when it names one of them; without tools, only a reply that is nothing but calls does.
   */
  tools?: readonly (string | { name: string })[];
  /**
   * Which formats to read: `all` (default), or `marked` only (tags and tokens), for a protocol that reads
   * its own unmarked syntax first (ReAct's `Action:` lines).
   */
  formats?: 'all' | 'marked';
}

/** Every tool call found in a reply, in order, and how they were written. */
export interface ToolCallsRead {
  calls: TextToolCall[];
  /** The habits read through (`special_tokens` for a model's own format, `json_envelope`…). */
  habits: ReplyHabit[];
  /** The ids of the formats the calls were written in (`hermes`, `pythonic`…; see docs/protocols.md). */
  formats: string[];
  /** The model's words before the first call (its reasoning), without markers. */
  thought?: string;
  /** JSON that needed repair, or a call cut off at the end. */
  repaired: boolean;
  /** A call marker whose call could not be read: what the model should fix. */
  problem?: string;
}

/**
 * Reads every tool call in a model's text reply, in any format real models write (see the table in
 * docs/protocols.md): Hermes/Qwen `<tool_call>`, Qwen3-Coder and GLM-4.5 XML, `<invoke>`, Mistral
 * `[TOOL_CALLS]`, Llama 3.1 JSON and `<|python_tag|>`, Llama 3.2+/4 pythonic lists and bare calls,
 * GLM-4 `name\n{json}`, Granite, Functionary, NexusRaven, xLAM, DeepSeek, gpt-oss harmony, Kimi K2,
 * Command-R, FunctionGemma and plain JSON in every envelope. Python literals in arguments become JSON.
 * Prose that mentions a call is not one. Pure, never throws.
 *
 * @example
 * readToolCalls('[get_weather(city="Paris"), get_time(zone="CET")]').calls;
 * // → [{ name: 'get_weather', input: { city: 'Paris' } }, { name: 'get_time', input: { zone: 'CET' } }]
 */
export function readToolCalls(text: string, options: ReadToolCallsOptions = {}): ToolCallsRead {
  if (typeof text !== 'string' || !mayHoldCall(text)) return empty();
  try {
    // What follows a turn the model opened itself (`<|im_start|>assistant`) is not this reply.
    const { text: stripped, thought: think } = stripThink(cutAtNextTurn(text));
    const body = unescapeMarkdown(stripped);
    const marked = readMarked(body, 0);
    const done = marked.calls.length > 0 || marked.problem !== undefined || options.formats === 'marked';
    let read = done ? marked : readUnmarked(body, knownNames(options.tools));
    // An unmarked call in a reply that declines the task is an example for the person (declined-call.ts).
    if (!done && read.calls.length > 0 && declinesCall(body)) read = empty();
    return read.thought || think ? { ...read, thought: joinThoughts(think, read.thought) } : read;
  } catch {
    // Defensive only: every reader returns data.
    return empty();
  }
}

/**
 * Markdown escapes inside words (`triangle\\_properties.get`), as chat models trained on markdown write
 * them: `\\_` between letters or digits is `_`. Elsewhere (a Windows path's `C:\\_tmp`) it stays.
 */
function unescapeMarkdown(text: string): string {
  if (!text.includes('\\_')) return text;
  return text.replace(/\\_(?=[\p{L}\p{N}_\\])|(?<=[\p{L}\p{N}_])\\_/gu, '_');
}

/**
 * False for a reply that cannot hold a call in any format: every format has a bracket, a tag, a
 * recipient arrow or a special token (`( { [ <` or `>`). Most final answers stop here, at one pass.
 */
function mayHoldCall(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 || c === 123 || c === 91 || c === 60 || c === 62) return true;
  }
  return false;
}

/** The offered tools' name keys, for bare calls (made only when a reply has no marked call). */
function knownNames(tools: ReadToolCallsOptions['tools']): Set<string> | undefined {
  return tools?.length ? new Set(tools.map((t) => nameKey(typeof t === 'string' ? t : t.name))) : undefined;
}

function empty(): ToolCallsRead {
  return { calls: [], habits: [], formats: [], repaired: false };
}

/** A forgiving key for a tool name: case, separators and a `functions.` prefix do not count. */
function nameKey(name: string): string {
  return name
    .replace(/^functions\./i, '')
    .toLowerCase()
    .replace(/[\s_.\-/]+/g, '');
}

/** The text with ASCII letters lower-cased, so every index still points at the same character. */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

interface Found {
  format: CallFormat;
  at: number;
  marker: string;
}

/** Reads the marked formats, in the order they appear. */
function readMarked(text: string, depth: number): ToolCallsRead {
  if (
    !text.includes('<') &&
    !text.includes('[TOOL') &&
    !text.includes('>>>') &&
    !text.includes('to=') &&
    !text.includes('Call:')
  ) {
    return empty();
  }
  const lower = asciiLower(text);
  const next = new Map<string, number>();
  // Where each closing marker was last found: the scan only moves forward, so one search per marker
  // serves every call until the scan passes it (a reply of 10,000 unclosed openers stays linear).
  const seen = new Map<string, number>();
  const out = empty();
  let firstAt = -1;
  for (let pos = 0; out.calls.length < MAX_CALLS; ) {
    const found = earliest(text, lower, pos, next);
    if (!found) break;
    const { format, at, marker } = found;
    let bodyStart = at + marker.length;
    let name: string | undefined;
    if (format.name) {
      const end = firstOf(lower, format.name.until, bodyStart, bodyStart + 200, seen);
      if (!end) {
        pos = bodyStart;
        continue;
      }
      name = text.slice(bodyStart, end.at);
      bodyStart = end.at + end.marker.length;
      if (format.name.after) {
        const after = lower.indexOf(format.name.after, bodyStart);
        if (after >= 0 && after - bodyStart < 400) bodyStart = after + format.name.after.length;
      }
    }
    const close = firstOf(lower, format.close.map(asciiLower), bodyStart, text.length, seen);
    const again = firstOf(lower, format.open.map(asciiLower), bodyStart, close?.at ?? text.length, seen);
    const bodyEnd = close && !again ? close.at : (again?.at ?? text.length);
    const read = readBody(format, name, text.slice(bodyStart, bodyEnd), depth);
    if (read.calls.length > 0) {
      if (firstAt < 0) firstAt = at;
      out.calls.push(...read.calls);
      // A call in a model's own format: that is the habit, whatever JSON shape the format holds.
      add(out, format.id, [format.habit]);
      out.repaired ||= read.repaired;
    } else if (read.problem && !format.lineStart) out.problem ??= read.problem;
    else if (!format.lineStart && format.body === 'calls' && text.slice(bodyStart, bodyEnd).trim().startsWith('{')) {
      // A tag that holds an object naming no tool: the model meant a call, so say what the tag must hold.
      out.problem ??= `The ${marker.trim()} call must name a tool: {"name": "<tool>", "arguments": {...}}.`;
    }
    pos = close && !again ? close.at + close.marker.length : bodyEnd;
  }
  if (firstAt > 0) out.thought = cleanThought(text.slice(0, firstAt));
  if (out.calls.length > 0) out.problem = undefined;
  return out;
}

/** The earliest opening marker at or after `pos` (a line-start marker only at a line's start). */
function earliest(text: string, lower: string, pos: number, next: Map<string, number>): Found | undefined {
  let best: Found | undefined;
  for (const format of MARKED_FORMATS) {
    for (const marker of format.open) {
      const key = asciiLower(marker);
      let at = next.get(key) ?? -2;
      if (at !== -1 && at < pos) {
        at = lower.indexOf(key, pos);
        while (at >= 0 && format.lineStart && !atLineStart(text, at)) at = lower.indexOf(key, at + 1);
        next.set(key, at);
      }
      if (at >= 0 && (!best || at < best.at)) best = { format, at, marker };
    }
  }
  return best;
}

function atLineStart(text: string, at: number): boolean {
  for (let i = at - 1; i >= 0; i--) {
    const c = text[i];
    if (c === '\n') return true;
    if (c !== ' ' && c !== '\t') return false;
  }
  return true;
}

/** The earliest of `markers` in `[from, to)`. */
function firstOf(
  lower: string,
  markers: readonly string[],
  from: number,
  to: number,
  seen: Map<string, number>,
): { at: number; marker: string } | undefined {
  let best: { at: number; marker: string } | undefined;
  for (const marker of markers) {
    const key = asciiLower(marker);
    let at = seen.get(key);
    if (at === undefined || (at !== -1 && at < from)) {
      at = lower.indexOf(key, from);
      seen.set(key, at);
    }
    if (at >= 0 && at < to && (!best || at < best.at)) best = { at, marker };
  }
  return best;
}

function readBody(format: CallFormat, name: string | undefined, body: string, depth: number): BodyRead {
  const quotes = format.quotes ?? [];
  if (name !== undefined) {
    const read = oneCall(name, body, quotes);
    return read;
  }
  if (format.body === 'named') return readNamedTokens(body, format.separators ?? [], quotes);
  // Tags inside a tag (`<tool_call><function=…>`): read them as calls of their own.
  if (depth === 0 && body.includes('<')) {
    const inner = readMarked(body, depth + 1);
    if (inner.calls.length > 0) return { calls: inner.calls, habits: [], repaired: inner.repaired };
  }
  return readCallsBody(body, quotes);
}

function add(out: ToolCallsRead, format: string, habits: readonly ReplyHabit[]): void {
  if (!out.formats.includes(format)) out.formats.push(format);
  for (const habit of habits) if (!out.habits.includes(habit)) out.habits.push(habit);
}

/** The prose before a call: its reasoning, without keywords, leftover tokens or fence openers. */
function cleanThought(text: string): string | undefined {
  const analysis = text.indexOf('<|channel|>analysis<|message|>');
  if (analysis >= 0) {
    // gpt-oss: the analysis channel is the reasoning; the rest is headers.
    const start = analysis + '<|channel|>analysis<|message|>'.length;
    const end = text.indexOf('<|end|>', start);
    return text.slice(start, end < 0 ? text.length : end).trim() || undefined;
  }
  // Wrapper tags around calls (`<function_calls>`, `<minimax:tool_call>`) are not reasoning either.
  const bare = text
    .replace(/<[|｜][^<>\n]{0,60}[|｜]>/g, '')
    .replace(/<\/?[\w:-]{1,40}>\s*$/g, '')
    .replace(/```[\w-]*\s*$/, '');
  return reasoningIn(bare);
}

const CALL_FENCE_LANGS = new Set([
  '',
  'json',
  'json5',
  'python',
  'py',
  'python3',
  'tool_code',
  'tool_call',
  'tool_calls',
  'javascript',
  'js',
]);
// A fence opens at a line's start (up to three spaces in, as in CommonMark): a fence deeper in is text,
// such as a code model's string literal quoting another reply.
const FENCE = /(?<=^|\n)[ ]{0,3}```[ \t]*([\w-]*)[^\n]*\n([\s\S]*?)(?:```|$)/g;

/**
 * The unmarked formats, where they stand alone. Inside code fences meant for calls (json, python,
 * tool_code, bare), else in the prose with other languages' fences left out.
 */
function readUnmarked(text: string, known: Set<string> | undefined): ToolCallsRead {
  if (text.includes('```')) {
    const out = empty();
    let firstAt = -1;
    FENCE.lastIndex = 0;
    for (let fence = FENCE.exec(text); fence && out.calls.length < MAX_CALLS; fence = FENCE.exec(text)) {
      if (!CALL_FENCE_LANGS.has(fence[1].toLowerCase())) continue;
      const read = readStanding(fence[2], known, fence[1] !== '');
      if (read.calls.length === 0) continue;
      if (firstAt < 0) firstAt = fence.index;
      merge(out, read);
    }
    if (out.calls.length > 0) {
      const thought = joinThoughts(firstAt > 0 ? cleanThought(text.slice(0, firstAt)) : undefined, out.thought);
      if (thought) out.thought = thought;
      return out;
    }
    return readStanding(
      text.replace(FENCE, (block) => ' '.repeat(block.length)),
      known,
      false,
    );
  }
  return readStanding(text, known, false);
}

function merge(out: ToolCallsRead, read: ToolCallsRead): void {
  out.calls.push(...read.calls);
  for (const f of read.formats) if (!out.formats.includes(f)) out.formats.push(f);
  for (const h of read.habits) if (!out.habits.includes(h)) out.habits.push(h);
  out.repaired ||= read.repaired;
  out.problem ??= read.problem;
  out.thought ??= read.thought;
}

/** Calls standing alone in `text`: JSON calls, then Python call lines, then GLM-4's `name\n{json}`. */
function readStanding(text: string, known: Set<string> | undefined, callFence: boolean): ToolCallsRead {
  for (const format of UNMARKED_FORMATS) {
    const read = readSyntax(format, text, known, callFence);
    if (read.calls.length > 0 || read.problem) return read;
  }
  return empty();
}

function readSyntax(
  format: UnmarkedFormat,
  text: string,
  known: Set<string> | undefined,
  callFence: boolean,
): ToolCallsRead {
  switch (format.syntax) {
    case 'json': {
      if (!text.includes('{')) return empty();
      const read = readJsonCalls(text);
      return fromBody(format.id, read, [...read.habits], text, read.calls.length ? firstCallAt(text) : -1);
    }
    case 'python':
      return readCallLines(format, text, known, callFence);
    case 'name_json':
      return readNameJson(format, text, known);
  }
}

function fromBody(id: string, read: BodyRead, habits: ReplyHabit[], text: string, at: number): ToolCallsRead {
  const out: ToolCallsRead = {
    calls: read.calls,
    habits,
    formats: read.calls.length ? [id] : [],
    repaired: read.repaired,
  };
  if (read.problem) out.problem = read.problem;
  const thought = joinThoughts(at > 0 ? cleanThought(text.slice(0, at)) : undefined, read.thought);
  if (thought) out.thought = thought;
  return out;
}

function firstCallAt(text: string): number {
  const brace = text.indexOf('{');
  const bracket = text.search(/\[\s*\{/);
  return bracket >= 0 && bracket < brace ? bracket : brace;
}

/** A line that may start a call: `name(`, `[name(` or `['name(`, checked on a bounded prefix. */
const CALL_LINE = /^(?:\[\s*['"`]?)?[\p{L}_][\p{L}\p{M}\p{N}_.\-/]{0,127}\s*\(/u;

/**
 * Python call statements on lines of their own. A list (`[f(a=1)]`) is a call wherever it stands alone;
 * a bare call (`f(a=1)`) only when it names one of the tools, or when the text is nothing but calls.
 */
function readCallLines(
  format: UnmarkedFormat,
  text: string,
  known: Set<string> | undefined,
  callFence: boolean,
): ToolCallsRead {
  if (!text.includes('(')) return empty();
  const out = empty();
  let other = false;
  let pendingBare: TextToolCall[] = [];
  let firstAt = -1;
  for (let at = 0; at < text.length && out.calls.length < MAX_CALLS; ) {
    let lineEnd = text.indexOf('\n', at);
    if (lineEnd < 0) lineEnd = text.length;
    let start = at;
    while (start < lineEnd && (text[start] === ' ' || text[start] === '\t')) start++;
    if (start === lineEnd) {
      at = lineEnd + 1;
      continue;
    }
    const statement =
      (CALL_LINE.test(text.slice(start, start + 140)) ? readCallStatement(text, start) : undefined) ??
      quotedCallLine(text, start, lineEnd);
    const rest = statement
      ? text.slice(
          statement.end,
          text.indexOf('\n', statement.end) < 0 ? text.length : text.indexOf('\n', statement.end),
        )
      : '';
    if (statement && LINE_END.test(rest)) {
      const calls = statement.calls.map(unwrapPrint).filter((c) => c !== undefined);
      const named = statement.bracketed || (known !== undefined && calls.every((c) => known.has(nameKey(c.name))));
      if (named) {
        if (firstAt < 0) firstAt = start;
        out.calls.push(...calls);
      } else pendingBare = pendingBare.concat(calls);
      const after = text.indexOf('\n', statement.end);
      at = after < 0 ? text.length : after + 1;
      continue;
    }
    // A code fence meant for calls may go on with unrelated code; prose elsewhere makes bare calls doubtful.
    other = true;
    at = lineEnd + 1;
  }
  if (pendingBare.length > 0 && (!other || (callFence && known === undefined && out.calls.length === 0))) {
    if (firstAt < 0) firstAt = 0;
    out.calls.push(...pendingBare);
  }
  if (out.calls.length === 0) return out;
  add(out, format.id, format.habit ? [format.habit] : []);
  if (firstAt > 0) out.thought = cleanThought(text.slice(0, firstAt));
  return out;
}

/** What may follow calls on their line: separators, a full stop, a Python comment. */
const LINE_END = /^[\s;,.]*(?:#.*)?$/;

/** A call written in quotes on a line of its own (`'f(a=1)'`), or a list whose quote never closes (`['f(a=1)]`). */
const QUOTED_CALL = /^(\[?)[ \t]*(['"])([\p{L}_][^\n]{0,16000}\))[ \t]*\2?[ \t]*(\]?)[ \t]*$/u;

/** Reads a quoted call line as the call inside; the statement ends with the line. */
function quotedCallLine(text: string, start: number, lineEnd: number): ReturnType<typeof readCallStatement> {
  if (!/['"]/.test(text.slice(start, start + 3))) return undefined;
  const match = QUOTED_CALL.exec(text.slice(start, lineEnd));
  if (!match || match[1].length !== match[4].length) return undefined;
  const fixed = `${match[1]}${match[3]}${match[4]}`;
  const read = readCallStatement(fixed, 0);
  if (!read || fixed.slice(read.end).trim() !== '') return undefined;
  return { ...read, end: lineEnd };
}

/**
 * A call as a statement's call: `print(default_api.get_time(zone="CET"))`, as Gemini writes in
 * tool_code blocks, is the call inside; recipient prefixes go. Undefined for a bad name.
 */
function unwrapPrint(call: { name: string; input: TextToolCall['input'] }): TextToolCall | undefined {
  if (call.name === 'print' && typeof call.input === 'string') {
    const inner = readCallStatement(call.input, 0);
    if (inner?.calls.length === 1) return unwrapPrint(inner.calls[0]);
  }
  const name = cleanName(call.name);
  return name ? { name, input: call.input } : undefined;
}

/** GLM-4: the tool's name alone on the first line, its JSON arguments after it, and nothing else. */
function readNameJson(format: UnmarkedFormat, text: string, _known: Set<string> | undefined): ToolCallsRead {
  const t = text.trim();
  const newline = t.indexOf('\n');
  if (newline < 0) return empty();
  const rest = t.slice(newline + 1).trim();
  if (!rest.startsWith('{') || !rest.endsWith('}')) return empty();
  const read = oneCall(t.slice(0, newline), rest, []);
  if (read.calls.length === 0 || typeof read.calls[0].input !== 'object') return empty();
  return fromBody(format.id, read, format.habit ? [format.habit] : [], t, 0);
}

/** Calls read from a reply as a parsed step (the first call is `tool`/`input`; `calls` when several). */
export function callsStep(found: ToolCallsRead): ParsedStep {
  const [first] = found.calls;
  const step: ParsedStep = { type: 'action', tool: first.name, input: first.input };
  if (found.calls.length > 1) step.calls = found.calls;
  if (found.thought) step.thought = found.thought;
  if (found.repaired) step.repaired = true;
  if (found.habits.length > 0) step.habits = found.habits;
  return step;
}
