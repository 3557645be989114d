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
  return `${event.kind}: ${n(event.tokensBefore)} → ${n(event.tokensAfter)} tokens${cleared}`;
}
