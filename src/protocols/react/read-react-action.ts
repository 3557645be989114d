import { type ParsedStep, parseJsonLenient, type ReplyHabit } from '../../core/index.js';
import { invalid, withExtras, withHabits } from '../shared/build-step.js';
import { parseActionCall, readActionObject } from '../shared/call-syntax.js';
import { coerceInput, extractJson, isRecord } from '../shared/json.js';
import { isFinalName, isNoneName, squash } from '../shared/keywords.js';
import { FIX_KEYWORDS, replyLanguage } from '../shared/prompt-template.js';

/** The format reminder appended to ReAct reasons. */
export const FORMAT_HINT =
  'Write "Action: <tool name>" then "Action Input: <JSON arguments>", or "Final Answer: <answer>".';

/** Another framework's name for the input line (`Input:`, `Tool Input:`, `输入：`) at the start of the input. */
const INPUT_ALIAS = /^[*_]*(?:tool[ _]?)?(?:input|args|arguments|输入|参数)[*_]*[ \t]*[:：][*_]*[ \t]*/i;
const TEXT_INPUT = { commentary: true };
/** Keys a final answer in action form wraps its text in: `Action: finish` + `{"answer": "…"}`. */
const ANSWER_KEYS = ['answer', 'final_answer', 'response', 'result', 'output', 'text', 'content'];

/**
 * Reads the chosen Action section and its Action Input: a tool name plus input, a call written on
 * the Action line (`search[q]`, `search("q")`), a JSON blob, or a final answer in action form
 * (`Finish[…]`, `Action: Final Answer`). Returns `invalid` with what to fix otherwise.
 */
export function readReActAction(
  actionText: string,
  inputText: string | undefined,
  raw: string,
  tools?: readonly { name: string }[],
): ParsedStep {
  const action = actionText.trim();
  if (action === '') return invalid(raw, `The Action is empty. ${FORMAT_HINT}`, detail(raw, '', 'tool'));
  // LangChain's structured-chat format: the Action holds a JSON blob (often fenced).
  if (action.startsWith('{') || action.startsWith('```')) return readJsonAction(action, raw);
  const [firstLine, ...moreLines] = action.split('\n');
  const habits: ReplyHabit[] = [];
  const parsed = parseActionCall(unwrap(callLine(firstLine, action)));
  // `Action: search [tool]`: the brackets say what the name is, they are not a call.
  const call = parsed?.annotation ? undefined : parsed;
  // `Action: search()` or `Action: search (to look it up)` then `Action Input: {…}`: when an input follows,
  // the parentheses are decoration, not the input (a final answer's brackets stay its answer).
  const inputFollows =
    inputText !== undefined && (call?.empty || (inputText.trim() !== '' && !isFinalName(call?.tool ?? '')));
  if (call && !inputFollows) {
    if (call.tool.length <= 4 && isNoneName(firstLine.trim())) return noTool(firstLine.trim(), raw);
    if (isFinalName(call.tool)) {
      const multiLine = callLine(firstLine, action) !== firstLine;
      return withHabits(finalFrom(call.input, raw, call.repaired), multiLine ? ['foreign_keywords'] : []);
    }
    const step: ParsedStep = { type: 'action', tool: call.tool, input: call.input };
    if (call.repaired) step.repaired = true;
    return call.after === '' ? step : withHabits(step, ['trailing_commentary']);
  }
  const inline = parsed || inputText?.trim() ? undefined : nameThenJson(action);
  if (inline) return inline;
  const name = parsed ? parsed.tool : cleanToolName(firstLine, tools);
  if (parsed || name !== firstLine.trim()) habits.push('decorated_tool_name');
  if (!/[A-Za-z0-9]/.test(name) && !/[\p{L}\p{N}]/u.test(name)) {
    return invalid(raw, `The Action has no tool name. ${FORMAT_HINT}`, detail(raw, firstLine, 'tool'));
  }
  let rest = moreLines.join('\n').trim();
  const alias = rest !== '' && inputText === undefined ? INPUT_ALIAS.exec(rest) : null;
  if (alias) {
    rest = rest.slice(alias[0].length);
    habits.push('foreign_keywords');
  }
  const input = withoutEmphasis(dropStopLeftover(inputText ?? (rest === '' ? undefined : rest)));
  if (isFinalName(name)) {
    return input === undefined
      ? invalid(
          raw,
          `"Action: ${name}" needs the answer: write "Final Answer: <answer>".`,
          detail(raw, firstLine, 'final'),
        )
      : withHabits(finalFrom(input, raw, false), habits);
  }
  if (isNoneName(name)) return noTool(name, raw);
  const problem = toolNameProblem(name);
  if (problem) return invalid(raw, problem, detail(raw, firstLine, 'tool'));
  if (input === undefined) {
    const k = FIX_KEYWORDS[replyLanguage(raw, 'en')];
    return invalid(
      raw,
      `The Action "${name}" has no Action Input. Write "Action Input:" on the next line with the arguments as JSON ({} if none).`,
      { quote: lineOf(raw, firstLine), fix: `${k.action}${name}\n${k.input}{}` },
    );
  }
  const coerced = coerceInput(input, TEXT_INPUT);
  if (!coerced.ok) return invalid(raw, coerced.reason);
  const step: ParsedStep = { type: 'action', tool: name, input: coerced.input };
  if (coerced.repaired) step.repaired = true;
  if (coerced.habits) habits.push(...coerced.habits);
  return withHabits(step, habits);
}

/** `search {"q": "x"}`, `search: {…}`, `search with input {…}`: a tool name and its JSON on the Action line. */
const NAME_THEN_JSON =
  /^[*_`"']*([\p{L}\p{N}_.\-/]+)[*_`"']*[ \t]*(?:[:：]|[ \t]+with(?:[ \t]+(?:input|args|arguments))?[ \t]*[:：]?)?[ \t]*(?=\{)/iu;

function nameThenJson(action: string): ParsedStep | undefined {
  const head = NAME_THEN_JSON.exec(action);
  if (!head || isFinalName(head[1]) || isNoneName(head[1])) return undefined;
  const input = coerceInput(action.slice(head[0].length).trim());
  if (!input.ok || !isRecord(input.input)) return undefined;
  const step: ParsedStep = { type: 'action', tool: head[1], input: input.input };
  if (input.repaired) step.repaired = true;
  return step;
}

function noTool(name: string, raw: string): ParsedStep {
  return invalid(
    raw,
    `"${name}" is not a tool. To answer, write "Final Answer: <answer>"; to act, name a tool.`,
    detail(raw, name, 'final'),
  );
}

/**
 * What a correction shows: the reply's line holding `fragment` (the model's own words) and the line
 * to write instead, in the reply's language: the final-answer line, or an action with its input.
 */
export function detail(raw: string, fragment: string, want: 'tool' | 'final'): { quote: string; fix: string } {
  const k = FIX_KEYWORDS[replyLanguage(raw, 'en')];
  const zh = k.final !== FIX_KEYWORDS.en.final;
  const fix =
    want === 'final'
      ? `${k.final}${zh ? '<你的答案>' : '<your answer>'}`
      : `${k.action}${zh ? '<工具名>' : '<tool name>'}\n${k.input}{"<argument>": "<value>"}`;
  return { quote: lineOf(raw, fragment), fix };
}

/** The whole line of `raw` that holds `fragment` (else the first Action line, else the first line). */
function lineOf(raw: string, fragment: string): string {
  const lines = raw.split('\n');
  const text = fragment.trim();
  return (
    (text ? lines.find((l) => l.includes(text)) : undefined) ??
    lines.find((l) => /action|行动/i.test(l)) ??
    lines[0]
  ).trim();
}

/** The Action line, or the whole Action when a bracket opened on it closes on a later line (`Finish[a\nb]`). */
function callLine(firstLine: string, action: string): string {
  if (firstLine.length === action.length) return firstLine;
  if (!/^[^[\]]*\[[^\]]*$/.test(firstLine) || !action.trimEnd().endsWith(']')) return firstLine;
  return action;
}

function readJsonAction(action: string, raw: string): ParsedStep {
  const span = extractJson(action);
  const parsed = span ? parseJsonLenient(span.json) : undefined;
  if (!span || !parsed?.ok) {
    return invalid(
      raw,
      'The Action holds JSON that could not be read. Send {"action": "<tool>", "action_input": {...}}.',
    );
  }
  if (span.cutInString) {
    return invalid(raw, 'The Action JSON was cut off in the middle of a string. Send the whole JSON object again.');
  }
  const step = readActionObject(parsed.value, { raw, truncated: span.truncated });
  if (!step) return invalid(raw, 'The Action JSON must be {"action": "<tool>", "action_input": {...}}.');
  return withExtras(step, undefined, parsed.repaired || span.truncated);
}

function finalFrom(input: unknown, raw: string, repaired: boolean): ParsedStep {
  const text = typeof input === 'string' ? coerceInput(input) : { ok: true as const, input, repaired: false };
  let value = text.ok ? text.input : input;
  const habits: ReplyHabit[] = [];
  // `Action: finish` + `{"answer": "…"}`: the answer is the text inside, not the JSON around it.
  if (isRecord(value)) {
    const key = ANSWER_KEYS.find((k) => typeof (value as Record<string, unknown>)[k] === 'string');
    if (key && Object.keys(value).length === 1) {
      value = (value as Record<string, unknown>)[key];
      habits.push('foreign_keywords');
    }
  }
  const answer = (typeof value === 'string' ? value : JSON.stringify(value)).trim();
  if (!answer) return invalid(raw, 'The final answer is empty. Write the answer after "Final Answer:".');
  const step: ParsedStep = { type: 'final', answer };
  if (repaired) step.repaired = true;
  return withHabits(step, habits);
}

const BRACKETED = /^[[【「]([\p{L}\p{N}_.\-/ ]+)[\]】」]$/u;
/** "Use the Calculator tool", "使用search工具": the name inside the words about it. */
const VERBAL = /^(?:use|call|使用|调用)\s*(?:the\s+)?(.+?)(?:\s+(?:tool|工具)|工具)?$/i;
/**
 * "the search tool", "search 工具": one name and a word saying it is a tool. The word is lower case:
 * a capitalised one belongs to a name with spaces (`Wikipedia Tool`, as CrewAI names tools).
 */
const ANNOTATED = /^(?:the\s+)?[`"']?([\p{L}\p{N}_.\-/]+)[`"']?(?:\s+(?:tool|function)|\s*(?:工具|函数))$/u;
/** `search - look it up`, `search — 搜索网页`: a name, then what it is for. */
const DESCRIBED = /^([\p{L}\p{N}_.\-/]+)\s+[-–—:：]\s+\S.*$/u;

/**
 * Strips the decoration models put around a tool name: backticks, quotes, emphasis, brackets, a
 * trailing period or comma, words about the name (`the search tool`, `使用search工具`) and a
 * description after it (`search - look it up`). A name that merely ends in "Tool" is kept whole, and
 * when the offered tools are known, a name that is one of them as written is kept as written.
 */
function cleanToolName(line: string, tools?: readonly { name: string }[]): string {
  let name = unwrap(line);
  const bracketed = BRACKETED.exec(name);
  if (bracketed) name = bracketed[1].trim();
  if (tools?.some((t) => squash(t.name) === squash(name))) return name;
  const described = DESCRIBED.exec(name);
  if (described) return described[1];
  const verbal = VERBAL.exec(name);
  if (verbal) return verbal[1].trim();
  const annotated = ANNOTATED.exec(name);
  // A Chinese name ending in 工具 (`搜索工具`) is a name; only an ASCII name takes the suffix off.
  return annotated && /^[\x20-\x7e]+$/.test(annotated[1]) ? annotated[1] : name;
}

/** Markdown emphasis around a whole input (`**{"q": "x"}**`) is the model's formatting, not the input. */
function withoutEmphasis(input: string | undefined): string | undefined {
  const match = input === undefined ? null : /^\s*(\*\*|__)([\s\S]*?)\1\s*$/.exec(input);
  return match && match[2].trim() !== '' ? match[2] : input;
}

/** Strips the decoration models put around an Action line: backticks, quotes, emphasis, a final period. */
function unwrap(line: string): string {
  return line
    .trim()
    .replace(/^[*_`"']+|[*_`"'.。,，;；]+$/g, '')
    .trim();
}

function toolNameProblem(tool: string): string | undefined {
  const words = tool.split(/\s+/).length;
  if (tool.length > 64 || words > 4 || /[,;!?{}<>，。]/.test(tool)) {
    const shown = tool.length > 60 ? `${tool.slice(0, 60)}…` : tool;
    return `The Action must be just a tool name, but it was "${shown}". ${FORMAT_HINT}`;
  }
  return undefined;
}

/**
 * Removes a last line that is the start of "Observation" (`Observ`, `Observation`, `观察`): what is
 * left when a stop sequence cut the model off mid-keyword, which must not reach the tool.
 */
function dropStopLeftover(input: string | undefined): string | undefined {
  if (input === undefined) return undefined;
  const text = input.trimEnd();
  const cut = text.lastIndexOf('\n');
  if (cut < 0) return input;
  const last = text
    .slice(cut + 1)
    .trim()
    .toLowerCase();
  const leftover = (last.length >= 3 && 'observation'.startsWith(last)) || last === '观察' || last === '觀察';
  return leftover ? text.slice(0, cut) : input;
}
