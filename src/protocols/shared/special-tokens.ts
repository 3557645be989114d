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
