import type { ModelResponse, ToolCall } from '../../../core/index.js';
import { generateToolCallId } from '../../generate-id.js';
import { parseError } from '../../http/index.js';
import { mapAnthropicStopReason } from './map-finish-reason.js';
import { AnthropicResponse } from './wire-schema.js';

/** Reads a Messages API body into a ModelResponse (pure): text blocks joined, tool_use blocks as tool calls. */
export function parseAnthropicResponse(body: unknown, options: { provider: string }): ModelResponse {
  const parsed = AnthropicResponse.safeParse(body);
  if (!parsed.success) {
    throw parseError(options.provider, 'a response of unexpected shape (no content array)', JSON.stringify(body));
  }
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const block of parsed.data.content) {
    if (block.type === 'text') text += block.text ?? '';
    if (block.type === 'tool_use') {
      toolCalls.push({
        id: block.id || generateToolCallId(),
        name: block.name ?? '',
        arguments: JSON.stringify(block.input ?? {}),
      });
    }
  }
  const response: ModelResponse = { text, finishReason: mapAnthropicStopReason(parsed.data.stop_reason) };
  if (toolCalls.length > 0) response.toolCalls = toolCalls;
  const usage = parsed.data.usage;
  if (usage?.input_tokens != null && usage.output_tokens != null) {
    response.usage = { promptTokens: usage.input_tokens, completionTokens: usage.output_tokens };
  }
  return response;
}
