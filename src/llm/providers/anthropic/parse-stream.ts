import { type ModelChunk, ModelError, type ModelResponse, type ToolCall } from '../../../core/index.js';
import { generateToolCallId } from '../../generate-id.js';
import { parseError, redact, type SseEvent, tryParseJson } from '../../http/index.js';
import { mapAnthropicStopReason } from './map-finish-reason.js';
import { AnthropicEvent } from './wire-schema.js';

interface ToolBlock {
  toolIndex: number;
  id: string;
  name: string;
  json: string;
  /** Some proxies send the whole input in content_block_start instead of input_json_delta events. */
  startInput?: unknown;
}

/**
 * Turns Messages API stream events into ModelChunks (pure). `input_json_delta` fragments are
 * assembled per content block; tool calls are numbered in order of appearance. Ends with one
 * `response` chunk. A line that is not JSON, or an `error` event, throws a ModelError.
 */
export async function* parseAnthropicStream(
  events: AsyncIterable<SseEvent>,
  options: { provider: string; secrets?: readonly (string | undefined)[] },
): AsyncGenerator<ModelChunk, void, undefined> {
  const { provider } = options;
  let text = '';
  const tools = new Map<number, ToolBlock>();
  let stopReason: string | null | undefined;
  let inputTokens: number | undefined;
  let outputTokens: number | undefined;

  for await (const sse of events) {
    const json = tryParseJson(sse.data);
    if (!json.ok) throw parseError(provider, 'a stream line that is not JSON', sse.data);
    const parsed = AnthropicEvent.safeParse(json.value);
    if (!parsed.success) throw parseError(provider, 'a stream event of unexpected shape', sse.data);
    const event = parsed.data;
    if (event.type === 'message_stop') break;
    switch (event.type) {
      case 'error': {
        const providerMessage = redact(event.error?.message ?? sse.data, options.secrets);
        const type = event.error?.type ?? 'error';
        throw new ModelError({
          message: `${provider} reported ${type} mid-stream: ${providerMessage}`,
          provider,
          retryable: type === 'overloaded_error' || type === 'api_error',
          providerMessage,
        });
      }
      case 'message_start':
        inputTokens = event.message?.usage?.input_tokens ?? inputTokens;
        outputTokens = event.message?.usage?.output_tokens ?? outputTokens;
        break;
      case 'content_block_start': {
        const block = event.content_block;
        if (block?.type === 'text' && block.text) {
          text += block.text;
          yield { type: 'text_delta', text: block.text };
        }
        if (block?.type === 'tool_use') {
          const tool: ToolBlock = {
            toolIndex: tools.size,
            id: block.id || generateToolCallId(),
            name: block.name ?? '',
            json: '',
            startInput: block.input,
          };
          tools.set(event.index ?? tools.size, tool);
          yield { type: 'tool_call_delta', index: tool.toolIndex, id: tool.id, name: tool.name, argumentsDelta: '' };
        }
        break;
      }
      case 'content_block_delta': {
        const delta = event.delta;
        if (delta?.type === 'text_delta' && delta.text) {
          text += delta.text;
          yield { type: 'text_delta', text: delta.text };
        }
        if (delta?.type === 'input_json_delta' && delta.partial_json) {
          const tool = tools.get(event.index ?? -1);
          if (!tool) throw parseError(provider, 'an input_json_delta for an unknown content block', sse.data);
          tool.json += delta.partial_json;
          yield { type: 'tool_call_delta', index: tool.toolIndex, argumentsDelta: delta.partial_json };
        }
        break;
      }
      case 'message_delta':
        stopReason = event.delta?.stop_reason ?? stopReason;
        outputTokens = event.usage?.output_tokens ?? outputTokens;
        inputTokens = event.usage?.input_tokens ?? inputTokens;
        break;
      default:
        // ping, content_block_stop, thinking deltas: nothing to emit.
        break;
    }
  }

  const toolCalls: ToolCall[] = [...tools.values()].map((tool) => ({
    id: tool.id,
    name: tool.name,
    arguments: tool.json || startArguments(tool.startInput),
  }));
  const response: ModelResponse = { text, finishReason: mapAnthropicStopReason(stopReason) };
  if (toolCalls.length > 0) response.toolCalls = toolCalls;
  if (inputTokens !== undefined && outputTokens !== undefined) {
    response.usage = { promptTokens: inputTokens, completionTokens: outputTokens };
  }
  yield { type: 'response', response };
}

function startArguments(input: unknown): string {
  if (typeof input === 'object' && input !== null && Object.keys(input).length > 0) return JSON.stringify(input);
  return '{}';
}
