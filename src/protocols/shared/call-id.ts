/**
 * A stable id for a tool call read out of text (json and react protocols have no provider id).
 * Derived from the reply so that parsing stays pure and replays produce the same ids.
 */
export function textCallId(text: string, index: number): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `call_${(hash >>> 0).toString(36)}_${index}`;
}
