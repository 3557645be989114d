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
