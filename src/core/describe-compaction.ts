import type { EventOf } from './agent-event.js';

/**
 * One line for a `context_compact` event, the same in the terminal, the timeline and the HTML viewer:
 * `clear: 12,052 → 3,580 tokens, 6 results cleared (recall_result brings them back)`.
 */
export function describeCompaction(
  event: Pick<EventOf<'context_compact'>, 'kind' | 'tokensBefore' | 'tokensAfter' | 'callIds'>,
): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const cleared = event.callIds.length
    ? `, ${event.callIds.length} result${event.callIds.length === 1 ? '' : 's'} cleared (recall_result brings them back)`
    : '';
  // The provider compacted on its side without saying how much (OpenAI's opaque compaction item).
  if (event.kind === 'provider' && event.tokensBefore === event.tokensAfter) {
    return `provider: compacted on the provider's side, ${n(event.tokensAfter)} prompt tokens after`;
  }
  return `${event.kind}: ${n(event.tokensBefore)} → ${n(event.tokensAfter)} tokens${cleared}`;
}
