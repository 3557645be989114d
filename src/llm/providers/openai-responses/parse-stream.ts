import { type ModelChunk, ModelError } from '../../../core/index.js';
import { parseError, redact, type SseEvent, tryParseJson } from '../../http/index.js';
import { parseResponsesResponse } from './parse-response.js';
import { ResponsesEvent } from './wire-schema.js';

/**
 * Turns Responses API stream events into ModelChunks (pure): output text and reasoning summary
 * deltas as they come, function calls as their items are added and their arguments stream. The
 * final `response` chunk is read from `response.completed` (or `response.incomplete`), which holds
 * the whole Response. An `error` or `response.failed` event throws a ModelError.
 */
export async function* parseResponsesStream(
  events: AsyncIterable<SseEvent>,
  options: { provider: string; secrets?: readonly (string | undefined)[] },
): AsyncGenerator<ModelChunk, void, undefined> {
  const { provider } = options;
  const callIndex = new Map<number, number>();
  for await (const sse of events) {
    if (sse.data.trim() === '[DONE]') break;
    const json = tryParseJson(sse.data);
    if (!json.ok) throw parseError(provider, 'a stream line that is not JSON', sse.data);
    const parsed = ResponsesEvent.safeParse(json.value);
    if (!parsed.success) throw parseError(provider, 'a stream event of unexpected shape', sse.data);
    const event = parsed.data;
    switch (event.type) {
      case 'response.output_text.delta':
        if (event.delta) yield { type: 'text_delta', text: event.delta };
        break;
      case 'response.reasoning_summary_text.delta':
        if (event.delta) yield { type: 'reasoning_delta', text: event.delta };
        break;
      case 'response.output_item.added':
        if (event.item?.type === 'function_call') {
          const index = callIndex.size;
          callIndex.set(event.output_index ?? index, index);
          yield {
            type: 'tool_call_delta',
            index,
            id: event.item.call_id ?? undefined,
            name: event.item.name ?? undefined,
            argumentsDelta: typeof event.item.arguments === 'string' ? event.item.arguments : '',
          };
        }
        break;
      case 'response.function_call_arguments.delta': {
        const index = callIndex.get(event.output_index ?? -1);
        if (index !== undefined && event.delta) yield { type: 'tool_call_delta', index, argumentsDelta: event.delta };
        break;
      }
      case 'response.completed':
      case 'response.incomplete': {
        const body = (json.value as { response?: unknown }).response;
        yield { type: 'response', response: parseResponsesResponse(body, { provider }) };
        return;
      }
      case 'response.failed':
      case 'error': {
        const error = event.type === 'error' ? event : event.response?.error;
        const providerMessage = redact(error?.message ?? sse.data, options.secrets);
        throw new ModelError({
          message: `${provider} reported ${error?.code ?? 'an error'} mid-stream: ${providerMessage}`,
          provider,
          retryable: error?.code === 'server_error' || error?.code === 'rate_limit_exceeded',
          providerMessage,
        });
      }
      default:
        break;
    }
  }
  throw parseError(provider, 'a stream that ended without response.completed');
}
