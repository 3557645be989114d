import type { FinishReason } from '../../../core/index.js';

/** Maps Ollama's `done_reason` to thinkflow's; Ollama says `stop` for tool calls too, so tool calls win. */
export function mapOllamaDoneReason(reason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  if (hasToolCalls) return 'tool_calls';
  switch (reason) {
    case 'stop':
    case null:
    case undefined:
      return 'stop';
    case 'length':
      return 'length';
    default:
      return 'other';
  }
}
