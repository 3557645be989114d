import type { ParsedStep } from '../../core/index.js';
import { isFinalName } from './keywords.js';
import { parseActionCall } from './parse-action-call.js';

const START = /^\[\s*[\p{L}_][\p{L}\p{N}_.-]*\s*\(/u;

/**
 * Reads Llama 3.2's pythonic tool-call list, `[get_weather(city="Paris"), get_time()]`, when it is the
 * whole reply. The first call is taken. Returns undefined for anything else, so prose that happens
 * to contain brackets is never read as a call.
 */
export function readPythonicCalls(text: string): ParsedStep | undefined {
  const trimmed = text.trim();
  if (!START.test(trimmed) || !trimmed.endsWith(')]')) return undefined;
  const end = closingParen(trimmed, trimmed.indexOf('('));
  if (end < 0) return undefined;
  const call = parseActionCall(trimmed.slice(1, end + 1));
  if (!call || isFinalName(call.tool)) return undefined;
  return { type: 'action', tool: call.tool, input: call.input };
}

/** Index of the parenthesis closing the one at `open`, skipping quoted strings; -1 when unbalanced. */
function closingParen(text: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}
