/**
 * The tokens a reply carries from its chat template and reasoning: turn tokens a server failed to
 * strip, and `<think>` blocks (special tokens in DeepSeek-R1, QwQ and Qwen3 tokenizers), taken out
 * before the reply is read.
 */
import type { ReplyHabit } from '../../core/index.js';

/** A reply with the chat-template tokens a server left in it taken out. */
export interface TokensStripped {
  text: string;
  habits: ReplyHabit[];
}

/**
 * Tokens that end a turn (ChatML, Llama 3, Phi, Gemma, Mistral, Command R, DeepSeek). What follows one
 * is the model writing the next turn itself, never part of this reply. `</s>` and `<s>` are also HTML
 * (strikethrough), so they count only where a tokenizer puts them: at the end of a line or the reply, or next to another token.
 */
const END_OF_TURN =
  /<\|(?:im_end|eot_id|eom_id|end|endoftext|end_of_text|return|END_OF_TURN_TOKEN)\|>|<\/s>(?=\s*$|\s*<\/?s>|\s*\[INST\]|[ \t]*\n)|<eos>|<end_of_turn>|<[|｜]end[▁_]of[▁_]sentence[|｜]>/;
/** Tokens that open a turn or a role header, with the role name they carry. */
const TURN_START =
  /<\|im_start\|>(?:assistant|user|system)?|<\|start_header_id\|>\w*<\|end_header_id\|>|<start_of_turn>(?:model|user)?|^\s*<s>|<s>(?=\s*\[INST\])|<\|(?:assistant|user|system|im_sep)\|>|<[|｜]Assistant[|｜]>|\[\/INST\]/g;

const NONE: ReplyHabit[] = [];

/** One cheap test before the two passes above: most replies hold no token at all. */
const ANY_TOKEN = /<(?:\||｜|\/?s>|eos>|end_of_turn>|start_of_turn>)|\[\/INST\]/;

/**
 * Removes chat-template tokens a server failed to strip (`<|im_end|>`, `<|eot_id|>`, `<|end|>`, `</s>`…).
 * The reply ends at the first end-of-turn token that follows some text: after it the model was
 * writing the next turn (often a made-up Observation). Pure and cheap when no `<` or `[` is present.
 */
export function stripSpecialTokens(reply: string): TokensStripped {
  if ((!reply.includes('<') && !reply.includes('[/')) || !ANY_TOKEN.test(reply)) return { text: reply, habits: NONE };
  let text = reply.replace(TURN_START, '\n');
  let changed = text !== reply;
  for (let end = END_OF_TURN.exec(text); end; end = END_OF_TURN.exec(text)) {
    changed = true;
    const before = text.slice(0, end.index);
    if (before.trim() !== '') {
      text = before;
      break;
    }
    text = text.slice(end.index + end[0].length);
  }
  return changed ? { text: text.trim(), habits: ['special_tokens'] } : { text: reply, habits: NONE };
}

/** A reply with its `<think>` reasoning taken out. */
export interface ThinkStripped {
  /** The reply without the reasoning blocks. */
  text: string;
  /** The reasoning, when there was any. */
  thought?: string;
}

const THINK_BLOCK = /<(think|thinking|reasoning)>([\s\S]*?)<\/\1>/gi;
const OPEN_TAG = /<(think|thinking|reasoning)>/i;
const CLOSE_TAG = /<\/(think|thinking|reasoning)>/i;

/**
 * Removes `<think>…</think>` blocks (DeepSeek-R1, QwQ, Qwen3) and returns them as the thought.
 * Also handles the two broken shapes reasoning models produce: a reply that starts inside the block
 * (only `</think>` is present, because the chat template already opened it) and a reply cut off
 * inside the block (only `<think>` is present).
 */
export function stripThink(reply: string): ThinkStripped {
  if (!reply.includes('<')) return { text: reply.trim() };
  const thoughts: string[] = [];
  let text = reply.replace(THINK_BLOCK, (_all, _tag, inner: string) => {
    thoughts.push(inner.trim());
    return '\n';
  });
  const close = CLOSE_TAG.exec(text);
  if (close && !OPEN_TAG.test(text.slice(0, close.index))) {
    thoughts.unshift(text.slice(0, close.index).trim());
    text = text.slice(close.index + close[0].length);
  }
  const open = OPEN_TAG.exec(text);
  if (open) {
    thoughts.push(text.slice(open.index + open[0].length).trim());
    text = text.slice(0, open.index);
  }
  const thought = thoughts.filter(Boolean).join('\n\n');
  return thought ? { text: text.trim(), thought } : { text: text.trim() };
}
