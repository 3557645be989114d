/**
 * The tokens a reply carries from its model's chat template: turn tokens a server failed to strip,
 * `<think>` blocks (special tokens in DeepSeek-R1, QwQ and Qwen3 tokenizers), both taken out before
 * the reply is read; a cheap test for tool calls written in a model's own token format (Kimi,
 * DeepSeek, gpt-oss; `readToolCalls` reads them), and gpt-oss harmony's final channel as the answer.
 */
import type { ParsedStep, ReplyHabit } from '../../core/index.js';

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
  let text = cutAtNextTurn(reply).replace(TURN_START, '\n');
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

/**
 * A turn opened with its role: after some text of this reply, the model is writing the next turn
 * itself. A bare `<|im_start|>` is not one: models trained on ChatML also write it around their calls.
 */
const NEXT_TURN =
  /<\|im_start\|>[ \t]*(?:assistant|user|system)\b|<\|start_header_id\|>(?:assistant|user|system)<\|end_header_id\|>|<start_of_turn>(?:model|user)\b/g;

/** The reply up to a turn opened after some of its text (a local model that ran past its stop token). */
export function cutAtNextTurn(reply: string): string {
  if (!reply.includes('<')) return reply;
  NEXT_TURN.lastIndex = 0;
  // Each stretch from one token to the next is looked at once (with its own token, so a role name goes too).
  let from = 0;
  for (let next = NEXT_TURN.exec(reply); next; next = NEXT_TURN.exec(reply)) {
    const stretch = reply.slice(from, next.index);
    if (stretch.replace(TURN_START, '').replace(END_OF_TURN_ALL, '').trim() !== '') return reply.slice(0, next.index);
    from = next.index;
  }
  return reply;
}

const END_OF_TURN_ALL = new RegExp(END_OF_TURN.source, 'g');

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

// DeepSeek writes full-width bars and ▁ in its tokens (<｜tool▁call▁begin｜>); servers and quotes
// often turn them into ASCII, so both spellings are matched.
const BAR = '[|｜]';
const SEP = '[▁_]';
const KIMI_OR_DEEPSEEK = new RegExp(
  `<${BAR}tool${SEP}call${SEP}begin${BAR}>([\\s\\S]*?)(?:<${BAR}tool${SEP}call${SEP}end${BAR}>|$)`,
);
/** gpt-oss (harmony): `<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{…}<|call|>`. */
const HARMONY_CALL =
  /(?:<\|start\|>assistant)?<\|channel\|>[^<]*?to=(?:functions\.)?([\w.-]+)[^<]*(?:<\|constrain\|>[^<]*)?<\|message\|>([\s\S]*?)(?:<\|call\|>|<\|end\|>|$)/;
const HARMONY_FINAL = /<\|channel\|>final<\|message\|>([\s\S]*?)(?:<\|return\|>|<\|end\|>|$)/;
const HARMONY_ANALYSIS = /<\|channel\|>analysis<\|message\|>([\s\S]*?)(?:<\|end\|>|$)/;

/** Cheap first test: every native token format this file reads has one of these. */
const TOKEN_HINT = /<[|｜](?:tool|channel)/;

/** True when a reply holds a tool call in a native token format (a cheap check for callers). */
export function hasTokenCall(text: string): boolean {
  return TOKEN_HINT.test(text) && (KIMI_OR_DEEPSEEK.test(text) || HARMONY_CALL.test(text));
}

/** gpt-oss harmony's final channel, as the answer (its analysis channel as the thought); undefined when absent. */
export function readHarmonyFinal(text: string): ParsedStep | undefined {
  if (!text.includes('<|channel|>')) return undefined;
  const final = HARMONY_FINAL.exec(text);
  if (!final || final[1].trim() === '') return undefined;
  const thought = harmonyAnalysis(text.slice(0, final.index));
  return {
    type: 'final',
    answer: final[1].trim(),
    ...(thought ? { thought } : {}),
    habits: ['special_tokens'],
  };
}

function harmonyAnalysis(text: string): string | undefined {
  return HARMONY_ANALYSIS.exec(text)?.[1].trim() || undefined;
}
