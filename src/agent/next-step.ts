import type { z } from 'zod';
import { parseJsonLenient, type ReplyHabit } from '../core/index.js';
import type { ReadReply, ReadToolCall } from '../protocols/index.js';

/**
 * What the loop does after reading a reply. `repaired` and `habits` say the reply was read through
 * a slip (it runs without a correction); `quote` and `fix` let a correction show the model its own
 * words and the corrected line.
 */
export type NextStep =
  | { type: 'final'; thought?: string; answer: string; object?: unknown; repaired?: boolean; habits?: ReplyHabit[] }
  | { type: 'run_tools'; thought?: string; calls: ReadToolCall[]; repaired?: boolean; habits?: ReplyHabit[] }
  | { type: 'retry_parse'; thought?: string; reason: string; raw: string; quote?: string; fix?: string };

/**
 * Turns a read reply into the loop's next move. With an output schema, a final answer must parse
 * and validate; if it does not, the model gets the validation errors like any invalid reply.
 */
export function decideNextStep(reply: ReadReply, raw: string, outputSchema?: z.ZodType): NextStep {
  if (reply.type === 'invalid') {
    return { type: 'retry_parse', reason: reply.reason, raw: reply.raw || raw, quote: reply.quote, fix: reply.fix };
  }
  if (reply.type === 'tool_calls') {
    return {
      type: 'run_tools',
      thought: reply.thought,
      calls: reply.calls,
      repaired: reply.repaired,
      habits: reply.habits,
    };
  }
  if (!outputSchema) {
    return {
      type: 'final',
      thought: reply.thought,
      answer: reply.answer,
      repaired: reply.repaired,
      habits: reply.habits,
    };
  }
  const value = parseAnswer(reply.answer);
  const result = outputSchema.safeParse(value);
  if (result.success) {
    return {
      type: 'final',
      thought: reply.thought,
      answer: reply.answer,
      object: result.data,
      repaired: reply.repaired,
      habits: reply.habits,
    };
  }
  const problems = result.error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
  return {
    type: 'retry_parse',
    thought: reply.thought,
    reason: `The final answer does not match the required output schema: ${problems}. Answer again with JSON that matches it.`,
    raw,
  };
}

/** Reads an answer as JSON when it looks like JSON (fences and small syntax slips repaired), else keeps the text. */
function parseAnswer(answer: string): unknown {
  const text = answer
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  if (!/^[[{"]/.test(text)) return text;
  const read = parseJsonLenient(text);
  return read.ok ? read.value : text;
}
