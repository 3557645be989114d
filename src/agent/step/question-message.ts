import type { Message } from '../../core/index.js';
import type { RunOptions } from '../run/index.js';

/** The run's question as a user message: its text, then any attachments as parts after it. */
export function questionMessage(input: string, attachments: RunOptions['attachments']): Message {
  if (!attachments?.length) return { role: 'user', content: input };
  return { role: 'user', content: [{ type: 'text', text: input }, ...attachments] };
}
