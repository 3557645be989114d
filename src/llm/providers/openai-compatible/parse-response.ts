import type { ModelResponse, ToolCall } from '../../../core/index.js';
import { generateToolCallId } from '../../generate-id.js';
import { parseError } from '../../http/index.js';
import { mapOpenAIFinishReason } from './map-finish-reason.js';
import { readOpenAIUsage } from './read-usage.js';
import { argumentsText, contentText, OpenAIResponse } from './wire-schema.js';

/**
 * Reads a chat-completions JSON body into a ModelResponse (pure). Missing tool-call ids are
 * generated, argument objects are stringified, reasoning (`reasoning_content` or `reasoning`) is
 * kept apart from the text.
 * Usage is left undefined when the server did not send it.
 */
export function parseOpenAIResponse(body: unknown, options: { provider: string; newId?: () => string }): ModelResponse {
  const parsed = OpenAIResponse.safeParse(body);
  if (!parsed.success) {
    throw parseError(options.provider, 'a response of unexpected shape (no choices[0].message)', JSON.stringify(body));
  }
  const newId = options.newId ?? generateToolCallId;
  const choice = parsed.data.choices[0];
  const toolCalls: ToolCall[] = (choice.message.tool_calls ?? []).map((call) => ({
    id: call.id || newId(),
    name: call.function.name ?? '',
    arguments: argumentsText(call.function.arguments) || '{}',
  }));
  const legacy = choice.message.function_call;
  if (legacy && toolCalls.length === 0) {
    toolCalls.push({ id: newId(), name: legacy.name, arguments: argumentsText(legacy.arguments) || '{}' });
  }
  const response: ModelResponse = {
    text: contentText(choice.message.content),
    finishReason: mapOpenAIFinishReason(choice.finish_reason, toolCalls.length > 0),
  };
  if (toolCalls.length > 0) response.toolCalls = toolCalls;
  const reasoning = choice.message.reasoning_content || choice.message.reasoning;
  if (reasoning) response.reasoning = [{ type: 'reasoning', text: reasoning, provider: options.provider }];
  const usage = readOpenAIUsage(parsed.data.usage);
  if (usage) response.usage = usage;
  return response;
}
