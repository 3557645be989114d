/**
 * Cuts text longer than `maxChars` and says so, so a tool never hands the model an unbounded observation.
 * Cuts at a line break when one is near the limit.
 */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let cut = text.lastIndexOf('\n', maxChars);
  if (cut < maxChars * 0.8) cut = maxChars;
  return `${text.slice(0, cut)}\n[… cut ${text.length - cut} of ${text.length} characters]`;
}
