import type { FinishReason } from '../../../core/index.js';

/** Maps Gemini's `finishReason` to thinkflow's; Gemini says STOP for function calls too, so they win. */
export function mapGeminiFinishReason(reason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  if (hasToolCalls && (reason === 'STOP' || reason == null)) return 'tool_calls';
  switch (reason) {
    case 'STOP':
    case null:
    case undefined:
      return 'stop';
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
      return 'content_filter';
    case 'MALFORMED_FUNCTION_CALL':
      return 'error';
    default:
      return 'other';
  }
}
