import { contentText, estimateMediaTokens, type Message, mediaParts } from '../core/index.js';
import { countTokens } from '../llm/index.js';

/** Chat formats spend a few tokens per message on role and separators (OpenAI documents 3-4). */
const PER_MESSAGE = 4;

/** Counts the tokens of one text. */
export type CountTokens = (text: string) => number;

/** Counts one message's tokens; results are cached per message object. */
export type MessageTokens = (message: Message) => number;

/**
 * A per-message token counter with a WeakMap cache, so a step only pays for the messages that
 * are new since the last call. Defaults to `countTokens` (exact o200k if gpt-tokenizer is installed, else an estimate).
 */
export function createMessageTokens(count: CountTokens = countTokens): MessageTokens {
  const cache = new WeakMap<Message, number>();
  return (message) => {
    const cached = cache.get(message);
    if (cached !== undefined) return cached;
    let total = PER_MESSAGE;
    if (typeof message.content === 'string') total += count(message.content);
    else {
      total += count(contentText(message.content, { media: 'omit' }));
      for (const part of mediaParts(message.content)) total += estimateMediaTokens(part);
    }
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) total += PER_MESSAGE + count(call.name) + count(call.arguments);
    }
    cache.set(message, total);
    return total;
  };
}
