import type { Message } from '../core/index.js';

/**
 * Splits a flat message list into atomic groups: an assistant message that calls tools takes the
 * tool results that follow it, every other message stands alone. Trimming whole groups never
 * leaves a tool result without its call, which providers reject with a 400.
 */
export function groupMessages(messages: readonly Message[]): Message[][] {
  const groups: Message[][] = [];
  for (const message of messages) {
    const last = groups.at(-1);
    const open = last?.[0].role === 'assistant' && (last[0].toolCalls?.length ?? 0) > 0;
    if (message.role === 'tool' && last && (open || last[0].role === 'tool')) last.push(message);
    else groups.push([message]);
  }
  return groups;
}
