import { type ParsedStep, parseJsonLenient } from '../../core/index.js';
import { invalid } from './invalid.js';
import { extractJson } from './json.js';
import { readActionObject } from './read-action-object.js';

/** A call found in a model's native token format, with the text before it. */
interface TokenCall {
  name: string;
  args: string;
  before: string;
}

// DeepSeek writes full-width bars and ▁ in its tokens (<｜tool▁call▁begin｜>); servers and quotes
// often turn them into ASCII, so both spellings are matched.
const BAR = '[|｜]';
const SEP = '[▁_]';
const KIMI_OR_DEEPSEEK = new RegExp(
  `<${BAR}tool${SEP}call${SEP}begin${BAR}>([\\s\\S]*?)(?:<${BAR}tool${SEP}call${SEP}end${BAR}>|$)`,
);
const DEEPSEEK_SEP = new RegExp(`<${BAR}tool${SEP}sep${BAR}>`);
const KIMI_ARGS = /<\|tool_call_argument_begin\|>/;
const SECTION_START = new RegExp(`<${BAR}tool${SEP}calls${SEP}(?:section${SEP})?begin${BAR}>`);
/** gpt-oss (harmony): `<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{…}<|call|>`. */
const HARMONY_CALL =
  /(?:<\|start\|>assistant)?<\|channel\|>[^<]*?to=(?:functions\.)?([\w.-]+)[^<]*(?:<\|constrain\|>[^<]*)?<\|message\|>([\s\S]*?)(?:<\|call\|>|<\|end\|>|$)/;
const HARMONY_FINAL = /<\|channel\|>final<\|message\|>([\s\S]*?)(?:<\|return\|>|<\|end\|>|$)/;
const HARMONY_ANALYSIS = /<\|channel\|>analysis<\|message\|>([\s\S]*?)(?:<\|end\|>|$)/;

/** Cheap first test: every native token format this file reads has one of these. */
const TOKEN_HINT = /<[|｜](?:tool|channel)/;

/** True when a reply holds a tool call in a native token format (a cheap check for callers). */
export function hasTokenCall(text: string): boolean {
  return TOKEN_HINT.test(text) && (KIMI_OR_DEEPSEEK.test(text) || HARMONY_CALL.test(text));
}

/**
 * Reads a tool call a model wrote as text in its own token format, which a server should have turned
 * into a native call but did not: Kimi K2 (`<|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{…}`),
 * DeepSeek V3/R1 (`<｜tool▁call▁begin｜>function<｜tool▁sep｜>search` + fenced JSON, or V3.1's
 * `search<｜tool▁sep｜>{…}`) and gpt-oss harmony (`to=functions.search … <|message|>{…}<|call|>`), plus
 * harmony's final channel as the answer. The first call is taken. Undefined when there is none.
 */
export function readTokenCall(text: string, raw: string): ParsedStep | undefined {
  if (!text.includes('<') || !TOKEN_HINT.test(text)) return undefined;
  const call = findCall(text);
  if (!call) return readHarmonyFinal(text);
  const span = extractJson(call.args);
  const parsed = span ? parseJsonLenient(span.json) : { ok: true as const, value: {}, repaired: false };
  if (!parsed.ok || span?.cutInString) {
    return invalid(raw, `The arguments of the "${call.name}" call could not be read. Send them as one JSON object.`);
  }
  const step = readActionObject({ name: call.name, arguments: parsed.value }, { raw });
  if (!step || step.type === 'invalid') return step;
  const thought = harmonyAnalysis(call.before) ?? cleanBefore(call.before);
  if (thought) step.thought = thought;
  if (parsed.repaired || span?.truncated) step.repaired = true;
  step.habits = ['special_tokens'];
  return step;
}

function findCall(text: string): TokenCall | undefined {
  const native = KIMI_OR_DEEPSEEK.exec(text);
  if (native) {
    const body = native[1];
    const section = SECTION_START.exec(text);
    const before = text.slice(0, section && section.index < native.index ? section.index : native.index);
    const kimi = KIMI_ARGS.exec(body);
    if (kimi) {
      // functions.get_weather:0 → get_weather
      const name = body
        .slice(0, kimi.index)
        .trim()
        .replace(/^functions\./, '')
        .replace(/:\d+$/, '');
      return name ? { name, args: body.slice(kimi.index + kimi[0].length), before } : undefined;
    }
    const sep = DEEPSEEK_SEP.exec(body);
    if (!sep) return undefined;
    const left = body.slice(0, sep.index).trim();
    const right = body.slice(sep.index + sep[0].length);
    if (left === 'function') {
      // V3/R1: the name is the first line after the separator, then the arguments (usually fenced).
      const newline = right.indexOf('\n');
      const name = (newline < 0 ? right : right.slice(0, newline)).trim();
      return name ? { name, args: newline < 0 ? '' : right.slice(newline + 1), before } : undefined;
    }
    return left ? { name: left, args: right, before } : undefined;
  }
  const harmony = HARMONY_CALL.exec(text);
  if (harmony) return { name: harmony[1], args: harmony[2], before: text.slice(0, harmony.index) };
  return undefined;
}

function readHarmonyFinal(text: string): ParsedStep | undefined {
  const final = HARMONY_FINAL.exec(text);
  if (!final || final[1].trim() === '') return undefined;
  const thought = harmonyAnalysis(text.slice(0, final.index));
  return {
    type: 'final',
    answer: final[1].trim(),
    ...(thought ? { thought } : {}),
    habits: ['special_tokens'],
  };
}

function harmonyAnalysis(text: string): string | undefined {
  return HARMONY_ANALYSIS.exec(text)?.[1].trim() || undefined;
}

/** The prose before a call, without any leftover tokens. */
function cleanBefore(text: string): string | undefined {
  return text.replace(/<[|｜][^<>]*[|｜]>/g, '').trim() || undefined;
}
