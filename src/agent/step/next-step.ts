import type { z } from 'zod';
import { parseJsonLenient, type ReadReply } from '../../core/index.js';
import { findProseToolCall, proseCallCorrection, replyLanguage } from '../../protocols/index.js';
import type { LoopConfig } from '../run/index.js';

/** What reading a reply into the next move needs besides the reply. */
export interface NextStepContext {
  /** The reply's text as the model wrote it. */
  raw: string;
  /** The run's tools (a call written in prose names one), protocol, language and output schema. */
  config: Pick<LoopConfig, 'tools' | 'protocol' | 'language'> & { options: { outputSchema?: z.ZodType } };
}

/**
 * The loop's next move: the reply as read, except that a final answer that is really a tool call
 * written in prose ("我将调用工具get_holiday(2027-08-15)", "I will call search(...)") is `invalid`, with a
 * correction in the reply's language showing the protocol's form, since nothing ran; and with an
 * output schema a final answer must parse and validate (its value becomes `object`); if it does not,
 * the reply is `invalid` with the validation errors, and the model gets them like any unreadable reply.
 */
export function nextStep(reply: ReadReply, ctx: NextStepContext): ReadReply {
  const { raw, config } = ctx;
  const outputSchema = config.options.outputSchema;
  if (reply.type === 'invalid') {
    return { type: 'invalid', reason: reply.reason, raw: reply.raw || raw, quote: reply.quote, fix: reply.fix };
  }
  if (reply.type === 'tool_calls') return reply;
  const text = raw || reply.answer;
  const prose = findProseToolCall(
    text,
    config.tools.registry.specs().map((t) => t.name),
  );
  if (prose) {
    const fix = proseCallCorrection(prose, {
      protocol: config.protocol.name,
      language: replyLanguage(text, config.language),
    });
    return { type: 'invalid', thought: reply.thought, raw, ...fix };
  }
  if (!outputSchema) return reply;
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
