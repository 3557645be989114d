import { KEYWORD_SPELLINGS, type ModelResponse, type ToolCall } from '../../core/index.js';

/** Ways `chaosModel` corrupts a reply, each something real models do. */
export type ChaosCorruption =
  | 'fullwidth_colon'
  | 'code_fence'
  | 'prose_around_json'
  | 'truncated_json'
  | 'wrong_tool_name'
  | 'missing_field'
  | 'hallucinated_observation'
  | 'empty_reply';

type Rand = () => number;
type Corrupt = (response: ModelResponse, rand: Rand) => ModelResponse;

/** A ReAct keyword at a line's start and its ASCII colon, any spelling of the one keyword table. */
const LABEL_SOURCE = `^(\\s*(?:${KEYWORD_SPELLINGS.flatMap(([, words]) => words).join('|')}))\\s*:`;

/** The corruptions, each a pure function of a reply and a seeded random source. */
export const CORRUPTIONS: Record<ChaosCorruption, Corrupt> = {
  fullwidth_colon: (r) => {
    const labels = new RegExp(LABEL_SOURCE, 'gim');
    const text = new RegExp(LABEL_SOURCE, 'im').test(r.text)
      ? r.text.replace(labels, '$1：')
      : r.text.replace(':', '：');
    return { ...r, text };
  },
  code_fence: (r) => {
    if (!r.text && r.toolCalls?.length) return withFirstCall(r, (c) => ({ ...c, arguments: fence(c.arguments) }));
    return { ...r, text: fence(r.text) };
  },
  prose_around_json: (r) => ({
    ...r,
    text: `Sure! Here is my response:\n\n${r.text}\n\nLet me know if you need anything else.`,
  }),
  truncated_json: (r, rand) => {
    if (r.toolCalls?.length) return withFirstCall(r, (c) => ({ ...c, arguments: cut(c.arguments, 0, rand) }));
    const brace = r.text.indexOf('{');
    return { ...r, text: cut(r.text, Math.max(0, brace), rand) };
  },
  wrong_tool_name: (r, rand) => {
    if (r.toolCalls?.length) return withFirstCall(r, (c) => ({ ...c, name: misspell(c.name, rand) }));
    const text = r.text
      .replace(/(Action\s*[:：]\s*)([\w.-]+)/, (_m, head: string, name: string) => head + misspell(name, rand))
      .replace(
        /("(?:tool|action|name)"\s*:\s*")([^"]+)"/,
        (_m, head: string, name: string) => `${head}${misspell(name, rand)}"`,
      );
    return { ...r, text };
  },
  missing_field: (r, rand) => {
    if (r.toolCalls?.length) return withFirstCall(r, (c) => ({ ...c, arguments: dropKey(c.arguments, rand) }));
    const inputLine = /\n?^\s*Action Input\s*[:：].*$/im;
    if (inputLine.test(r.text)) return { ...r, text: r.text.replace(inputLine, '') };
    const start = r.text.indexOf('{');
    const end = r.text.lastIndexOf('}');
    if (start < 0 || end <= start) return r;
    return { ...r, text: r.text.slice(0, start) + dropKey(r.text.slice(start, end + 1), rand) + r.text.slice(end + 1) };
  },
  hallucinated_observation: (r) => ({
    ...r,
    text: `${r.text}\nObservation: The result is 42.\nThought: I now know the final answer.\nFinal Answer: 42`,
  }),
  empty_reply: (r) => ({ ...r, text: '', toolCalls: undefined, finishReason: 'stop' }),
};

function withFirstCall(r: ModelResponse, change: (call: ToolCall) => ToolCall): ModelResponse {
  const [first, ...rest] = r.toolCalls ?? [];
  return first ? { ...r, toolCalls: [change(first), ...rest] } : r;
}

function fence(text: string): string {
  return `\`\`\`json\n${text}\n\`\`\``;
}

/** Cuts `text` somewhere between 40% and 90% of the way from `from` to its end. */
function cut(text: string, from: number, rand: Rand): string {
  const span = text.length - from;
  if (span < 2) return text.slice(0, Math.max(0, text.length - 1));
  const at = from + Math.max(1, Math.floor(span * (0.4 + rand() * 0.5)));
  return text.slice(0, Math.min(at, text.length - 1));
}

function misspell(name: string, rand: Rand): string {
  const variants = [
    name.charAt(0).toUpperCase() + name.slice(1),
    `${name}_tool`,
    `functions.${name}`,
    name.length > 3 ? name.slice(0, -1) : `${name}x`,
  ].filter((v) => v !== name);
  return variants[Math.floor(rand() * variants.length)] ?? `${name}_tool`;
}

function dropKey(json: string, rand: Rand): string {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return '{}';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return '{}';
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (!keys.length) return json;
  const preferred = keys.filter((k) => /^(action_input|input|arguments|args|answer)$/.test(k));
  const pool = preferred.length ? preferred : keys;
  const { [pool[Math.floor(rand() * pool.length)]]: _dropped, ...rest } = record;
  return JSON.stringify(rest);
}
