/**
 * Cuts a long text to its head and tail, with a marker saying how much was left out.
 * The head usually holds a tool output's structure and the tail its conclusion, so both are kept.
 *
 * @example
 * capObservation('x'.repeat(10_000), 4000); // 2000 chars + '[... 6000 characters omitted ...]' + 2000 chars
 */
export function capObservation(text: string, limit: number): string {
  if (!(limit > 0) || text.length <= limit) return text;
  const omitted = text.length - limit;
  const head = Math.ceil(limit / 2);
  const tail = limit - head;
  return `${text.slice(0, head)}\n[... ${omitted} characters omitted ...]\n${tail > 0 ? text.slice(-tail) : ''}`;
}
