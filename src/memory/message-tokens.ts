import { createRequire } from 'node:module';

type Tokenizer = typeof import('gpt-tokenizer');
const require = createRequire(import.meta.url);
let tokenizer: Tokenizer | undefined;

/** Loads the tokenizer on first use: its tables take seconds to load, and runs without a budget never need it. */
function countO200k(text: string): number {
  if (!tokenizer) {
    tokenizer = require('gpt-tokenizer') as Tokenizer;
    tokenizer.setMergeCacheSize(2_048);
  }
  return tokenizer.countTokens(text);
}

import { contentText, estimateMediaTokens, type Message, mediaParts } from '../core/index.js';

// gpt-tokenizer's global merge cache defaults to 100k entries; a small one is enough here.

/** Chat formats spend a few tokens per message on role and separators (OpenAI documents 3-4). */
const PER_MESSAGE = 4;

/** Counts the tokens of one text. */
export type CountTokens = (text: string) => number;

/** Counts one message's tokens; results are cached per message object. */
export type MessageTokens = (message: Message) => number;

/**
 * A per-message token counter with a WeakMap cache, so a step only pays for the messages that
 * are new since the last call. Defaults to the o200k tokenizer (gpt-tokenizer).
 */
export function createMessageTokens(count: CountTokens = countO200k): MessageTokens {
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
