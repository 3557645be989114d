import type { ParsedStep } from '../../core/index.js';
import { invalid } from './invalid.js';

/**
 * The longest reply, in characters, with no keywords, JSON action or tool-call tag that is taken as
 * the final answer. Short plain replies ("Paris.", a few paragraphs) are answers the model forgot to
 * label; much longer unlabelled text usually means the model lost the format (a plan, a draft, an
 * essay half-way through), so it is sent back with a request to label the answer instead.
 */
export const PLAIN_ANSWER_MAX_CHARS = 2000;

/** Reads a reply that has no recognised structure: short → final answer, long → invalid. */
export function plainReply(text: string, raw: string, thought: string | undefined): ParsedStep {
  const answer = text.trim();
  if (answer.length === 0) {
    return invalid(
      raw,
      thought
        ? 'The reply held only reasoning inside <think>…</think> and no action or answer. After thinking, write the action or the final answer.'
        : 'The reply was empty. Write an action or the final answer.',
    );
  }
  if (answer.length > PLAIN_ANSWER_MAX_CHARS) {
    return invalid(
      raw,
      `The reply has no action and no labelled answer, and at ${answer.length} characters it is too long to be taken as the answer. If this is your final answer, start it with "Final Answer:"; to use a tool, write the action in the required format.`,
    );
  }
  return thought ? { type: 'final', thought, answer } : { type: 'final', answer };
}
