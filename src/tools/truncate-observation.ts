/**
 * Cuts text longer than `limit` characters to its head (60%) and tail (40%) around a marker that
 * says how many characters were cut, so the model keeps both the start and the end of a long
 * output. The result, marker included, is at most `limit` characters (only the marker when `limit`
 * is shorter than it), and a surrogate pair is never split. A limit that is not a number (`NaN`)
 * cuts nothing. The one truncation helper: tool observations, the context window's cap on tool
 * messages and recalled memories all use it. With `recall`, the marker names the `recall_result`
 * call that returns the part it cut, from its first character (the run keeps the whole text), so a
 * model that needs the middle asks for the middle, not again for the head and tail it has.
 *
 * @example
 * truncateObservation('a'.repeat(10_000), 100); // 'aaa…\n[... 9,9xx characters cut ...]\n…aaa'
 * truncateObservation(page, 4000, { callId: 'call_7' }); // '…[... 8,112 characters cut; recall_result {"callId":"call_7","offset":2345} returns them ...]…'
 */
export function truncateObservation(text: string, limit: number, recall?: { callId: string }): string {
  if (Number.isNaN(limit) || text.length <= limit) return text;
  const how = (offset: number) => (recall ? `; ${recallHint(recall.callId, offset)} returns them` : '');
  const marker = (cut: number, offset: number) =>
    `\n[... ${cut.toLocaleString('en-US')} characters cut${how(offset)} ...]\n`;
  // The longest marker this text can have, so the result stays within `limit` whatever the offset.
  const budget = Math.max(0, limit - marker(text.length, text.length).length);
  let head = Math.ceil(budget * 0.6);
  let tail = budget - head;
  // Never split a surrogate pair (an emoji half is not text).
  if (head > 0 && isHighSurrogate(text.charCodeAt(head - 1))) head--;
  if (tail > 0 && isLowSurrogate(text.charCodeAt(text.length - tail))) tail--;
  const cut = text.length - head - tail;
  return text.slice(0, head) + marker(cut, head) + (tail > 0 ? text.slice(text.length - tail) : '');
}

/**
 * How many characters of `text` a cut at `tokens` tokens keeps, by the text's own density: CJK, kana,
 * hangul and full-width characters count a token each, anything else a quarter (about 4 characters a
 * token, as English runs). A Chinese result of 20,000 characters is about 20,000 tokens, not 5,000.
 *
 * @example
 * charsWithinTokens('a'.repeat(10_000), 1000); // 4000
 * charsWithinTokens('汉'.repeat(10_000), 1000); // 1000
 */
export function charsWithinTokens(text: string, tokens: number): number {
  if (text.length <= tokens) return text.length;
  let dense = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x2e80) dense++;
  const estimate = dense + (text.length - dense) / 4;
  return estimate <= tokens ? text.length : Math.floor((text.length * tokens) / estimate);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** How the model asks for a cut or cleared result back: the `recall_result` call, with its input (from `offset` on, when given). */
export function recallHint(callId: string, offset?: number): string {
  return `recall_result ${JSON.stringify(offset ? { callId, offset } : { callId })}`;
}

/** What stands for a tool result the context cleared: one line naming the call that brings it back. */
export function clearedResult(callId: string): string {
  return `[Result cleared to save context; ${recallHint(callId)} returns it.]`;
}
