import type { FinishReason } from '../../../core/index.js';

/**
 * Maps OpenAI's finish_reason to thinkflow's. Some servers (llama.cpp, Ollama's compat layer)
 * say `stop` even when the reply is tool calls, so tool calls win.
 */
export function mapOpenAIFinishReason(reason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  if (hasToolCalls && (reason === 'stop' || reason == null || reason === 'tool_calls' || reason === 'function_call')) {
    return 'tool_calls';
  }
  switch (reason) {
    case 'stop':
    case 'eos':
    case null:
    case undefined:
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}
