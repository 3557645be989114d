import type { Language, ProtocolName } from '../protocol.js';
import { spellingsOf } from './keywords.js';
import { FIX_KEYWORDS } from './prompt-template.js';

/** A tool call a model wrote as prose instead of in the protocol's format. */
export interface ProseToolCall {
  tool: string;
  /** The words that announce or write the call. */
  quote: string;
  /** What was inside the parentheses, when it wrote `tool(...)`. */
  args?: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A Latin tool name is a whole word, not part of a longer identifier; Chinese text has no spaces, so a
// CJK character next to it is no boundary ("调用工具get_holiday"), and a CJK name needs none.
const OPEN = '(?<![A-Za-z0-9_-])';
const CLOSE = '(?![A-Za-z0-9_-])';
const QUOTE = '[`"\'“”‘’「」『』*]*';

/** The phrases that announce a call, each with `NAME` where the tool's name goes. */
const ANNOUNCES = [
  // 我将调用工具X, 让我使用X, 接下来调用 X, 现在就用X工具
  `(?:我(?:将|会|要|来|需要|现在|先|这就|马上)?|让我|接下来|下面|现在|首先|然后|那我|好的[，,]?)\\s*(?:就|先|再|需要|将|会|要)?\\s*(?:调用|使用|执行|运行|用|呼叫)(?:一下)?\\s*(?:工具|函数|方法)?\\s*${QUOTE}NAME`,
  // 调用工具 X, 调用函数X
  `调用(?:工具|函数)\\s*[:：]?\\s*${QUOTE}NAME`,
  // I will call X, I'll use the X tool, let me invoke X, I'm going to run X
  `\\b(?:I(?:'ll|’ll| will| am going to|'m going to|’m going to| need to| shall| should| must|'d like to| want to| can now)|let me|let's|now I'll|next,? I'll|I'm now going to)\\s+(?:now\\s+|first\\s+|go ahead and\\s+)?(?:call|use|invoke|run|execute|query|try|trigger)\\s+(?:the\\s+)?(?:tool\\s+|function\\s+)?${QUOTE}NAME`,
  // Calling X..., Invoking the X tool
  `\\b(?:calling|invoking)\\s+(?:the\\s+)?(?:tool\\s+|function\\s+)?${QUOTE}NAME${QUOTE}\\s*(?:tool\\s*)?(?:[(（:：]|now|with|to\\b|…|\\.\\.\\.)`,
  // {"name": "X", ...} or function_call:{"call":"X"} written into the text
  `["']?(?:name|call|tool|tool_name|action|function)["']?\\s*[:：=]\\s*["']NAME["']`,
  // 调用 X，参数为…; 下一步：调用 weather，城市参数为“成都”; 调用工具 X，输入参数是：…
  `调用(?:工具|函数)?\\s*${QUOTE}NAME${QUOTE}\\s*(?:工具|函数)?\\s*[，,、:：]?\\s*[^。\\n]{0,10}?(?:参数|输入|入参)[^。\\n]{0,4}?(?:为|是|[:：=])`,
  // Using tool: X, input: …; Calling function: X with arguments …
  `\\b(?:using|calling|invoking|call|use|invoke)\\s+(?:the\\s+)?(?:tool|function)\\s*[:：]\\s*${QUOTE}NAME`,
  // Action: X written without the rest of the protocol
  `(?:^|\\n)\\s*(?:Action|Tool|行动|动作|工具)\\s*[:：]\\s*${QUOTE}NAME`,
];

// "Let me use the search results", "我用搜索结果回答": the tool's output, not a call of it.
const NOT_ITS_OUTPUT = '(?![`"\'”’」』*]*\\s*(?:results?|outputs?|data|findings|response|结果|的结果|返回|数据|信息))';

// An answer that says it is one: the protocol's own final marker.
const EXPLICIT_FINAL = new RegExp(
  `(?:${spellingsOf('final_answer')
    .map((word) => word.replaceAll(' ', '[ _]?'))
    .join('|')})\\s*["']?\\s*[:：]|"action"\\s*:\\s*"(?:final|final_answer|finish|answer)"`,
  'i',
);

/**
 * Finds a tool call written in prose in a reply that has no protocol action: a registered tool's name
 * in call syntax (`get_holiday(2027-08-15)`, `搜索（北京天气）`) or after an announce phrase ("我将调用工具
 * X", "I will call X", "Action: X" in plain text). A reply that only mentions a tool ("the weather tool
 * can tell you") is not one, and neither is an answer given with the protocol's final marker.
 */
export function findProseToolCall(text: string, toolNames: readonly string[]): ProseToolCall | undefined {
  if (!toolNames.length || EXPLICIT_FINAL.test(text)) return undefined;
  let best: (ProseToolCall & { at: number }) | undefined;
  const lower = text.toLowerCase();
  for (const tool of toolNames) {
    // Every pattern holds the name itself, so a name the text never writes cannot match: with thousands
    // of tools that is one `includes` each instead of seven regular expressions.
    if (!lower.includes(tool.toLowerCase())) continue;
    const { call: callPattern, announces } = patternsFor(tool);
    const call = callPattern.exec(text);
    if (call && (!best || call.index < best.at)) best = { tool, quote: call[0], args: call[1].trim(), at: call.index };
    const args = call ? call[1].trim() : undefined;
    for (const pattern of announces) {
      const m = pattern.exec(text);
      if (m && (!best || m.index < best.at)) best = { tool, quote: m[0].trim(), args, at: m.index };
    }
  }
  if (!best) return undefined;
  const { at: _at, ...found } = best;
  return found;
}

interface ToolPatterns {
  call: RegExp;
  announces: RegExp[];
}

/** Each tool's patterns, compiled once: every final answer is checked against all of them. */
const compiled = new Map<string, ToolPatterns>();
const MAX_COMPILED = 2_000;

function patternsFor(tool: string): ToolPatterns {
  let patterns = compiled.get(tool);
  if (patterns) return patterns;
  const latin = /^[A-Za-z0-9_-]/.test(tool);
  const name = latin ? `${OPEN}${escapeRegExp(tool)}${CLOSE}` : escapeRegExp(tool);
  patterns = {
    // Not global and not sticky: exec keeps no state between texts.
    call: new RegExp(`${name}${QUOTE}\\s*[(（]([^)）\\n]{0,200})[)）]`, 'iu'),
    announces: ANNOUNCES.map((phrase) => new RegExp(phrase.replace('NAME', `${name}${NOT_ITS_OUTPUT}`), 'iu')),
  };
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(tool, patterns);
  return patterns;
}

const REASONS: Record<Language, (tool: string) => string> = {
  en: (tool) =>
    `You described a call to the tool "${tool}" in prose instead of calling it, so nothing ran and this is not an answer. ` +
    'To call it, reply in the required format; if you already have the answer, give it without announcing a tool.',
  zh: (tool) =>
    `你用文字描述了对工具“${tool}”的调用，但没有按格式调用它，所以工具没有执行，这也不是最终答案。` +
    '要调用它，请按要求的格式回复；如果已经能回答，请直接给出最终答案，不要再说要调用工具。',
};

/** The input to show in a fix: the parenthesised text as JSON when it is JSON, else as a string. */
function fixInput(args: string | undefined): string {
  if (!args) return '{}';
  try {
    const value: unknown = JSON.parse(args);
    if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  } catch {
    // not JSON: the bare text, quoted
  }
  return JSON.stringify(args.replace(/^["'“‘]|["'”’]$/g, ''));
}

/**
 * The correction for a prose tool call, in the reply's language: the reason, and the line the protocol
 * wants instead (none for native tool calling, whose calls are not text).
 */
export function proseCallCorrection(
  found: ProseToolCall,
  options: { protocol: ProtocolName; language: Language },
): { reason: string; quote: string; fix?: string } {
  const reason = REASONS[options.language](found.tool);
  const input = fixInput(found.args);
  if (options.protocol === 'react') {
    const k = FIX_KEYWORDS[options.language];
    return { reason, quote: found.quote, fix: `${k.action}${found.tool}\n${k.input}${input}` };
  }
  if (options.protocol === 'json') {
    return { reason, quote: found.quote, fix: `{"action": "${found.tool}", "action_input": ${input}}` };
  }
  return { reason, quote: found.quote };
}
