import { type ActionInput, parseJsonLenient } from '../../core/index.js';
import { coerceInput } from './coerce-input.js';

/** A call written on the Action line itself: `search[query]` or `search("query")`. */
export interface ActionCall {
  tool: string;
  input: ActionInput;
  repaired: boolean;
  /** Nothing between the brackets (`search()`): the input may follow on an `Action Input:` line. */
  empty: boolean;
}

const BRACKET = /^([\p{L}\p{N}_.\-/]+)\s*\[([\s\S]*?)\]?\s*$/u;
const PAREN = /^([\p{L}\p{N}_.\-/]+)\s*\(([\s\S]*?)\)?\s*$/u;
const KWARG = /([\p{L}_][\p{L}\p{N}_]*)\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*'|[^,]+)/gu;

/**
 * Reads the call forms models write on the Action line: the ReAct paper's `Search[Colorado orogeny]`
 * and the function style `search("query")`, `search(query="x", limit=3)`, `search({"query": "x"})`.
 * A missing closing bracket (cut-off reply) is tolerated and marked repaired.
 */
export function parseActionCall(line: string): ActionCall | undefined {
  const text = line.trim();
  const bracket = BRACKET.exec(text);
  if (bracket && text.includes('[')) {
    const input = coerceInput(bracket[2]);
    return {
      tool: bracket[1],
      input: input.ok ? input.input : bracket[2].trim(),
      repaired: !text.endsWith(']'),
      empty: bracket[2].trim() === '',
    };
  }
  const paren = PAREN.exec(text);
  if (paren && text.includes('(')) {
    return {
      tool: paren[1],
      input: readArguments(paren[2]),
      repaired: !text.endsWith(')'),
      empty: paren[2].trim() === '',
    };
  }
  return undefined;
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
