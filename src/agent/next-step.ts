import type { z } from 'zod';
import { parseJsonLenient, type ReadReply } from '../core/index.js';

/**
 * The loop's next move: the reply as read, except that with an output schema a final answer must
 * parse and validate (its value becomes `object`); if it does not, the reply is `invalid` with the
 * validation errors, and the model gets them like any unreadable reply.
 */
export function nextStep(reply: ReadReply, raw: string, outputSchema?: z.ZodType): ReadReply {
  if (reply.type === 'invalid') {
    return { type: 'invalid', reason: reply.reason, raw: reply.raw || raw, quote: reply.quote, fix: reply.fix };
  }
  if (reply.type === 'tool_calls' || !outputSchema) return reply;
  const result = outputSchema.safeParse(parseAnswer(reply.answer));
  if (result.success) return { ...reply, object: result.data };
  const problems = result.error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
  return {
    type: 'invalid',
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
