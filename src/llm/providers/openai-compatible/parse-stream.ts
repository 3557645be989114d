import { type ModelChunk, ModelError, type ModelResponse, type ToolCall } from '../../../core/index.js';
import { generateToolCallId } from '../../generate-id.js';
import { parseError, providerMessageOf, redact, type SseEvent, tryParseJson } from '../../http/index.js';
import { mapOpenAIFinishReason } from './map-finish-reason.js';
import { readOpenAIUsage } from './read-usage.js';
import { argumentsText, contentText, OpenAIChunk, type OpenAIToolCallDelta } from './wire-schema.js';

/**
 * Turns chat-completions SSE events into ModelChunks (pure: no I/O, only the events given).
 * Tool-call argument fragments are assembled by index across chunks; servers that omit the
 * index are matched by id or position. Ends with one `response` chunk (usage undefined if the
 * server sent none). A line that is not JSON, or an error event, throws a ModelError.
 */
export async function* parseOpenAIStream(
  events: AsyncIterable<SseEvent>,
  options: { provider: string; newId?: () => string; secrets?: readonly (string | undefined)[] },
): AsyncGenerator<ModelChunk, void, undefined> {
  const { provider } = options;
  let text = '';
  let reasoning = '';
  const calls: Partial<ToolCall>[] = [];
  let finishReason: string | null | undefined;
  let usage: ModelResponse['usage'];

  for await (const event of events) {
    if (event.data.trim() === '[DONE]') break;
    const json = tryParseJson(event.data);
    if (!json.ok) throw parseError(provider, 'a stream line that is not JSON', event.data);
    if (event.event === 'error' || (typeof json.value === 'object' && json.value !== null && 'error' in json.value)) {
      throw streamError(provider, redact(event.data, options.secrets));
    }
    const chunk = OpenAIChunk.safeParse(json.value);
    if (!chunk.success) throw parseError(provider, 'a stream chunk of unexpected shape', event.data);
    usage = readOpenAIUsage(chunk.data.usage) ?? usage;
    // n > 1 is not supported: only the first choice is read.
    const choice = chunk.data.choices?.find((c) => (c.index ?? 0) === 0);
    if (!choice) continue;
    const thinking = choice.delta?.reasoning_content || choice.delta?.reasoning;
    if (thinking) {
      reasoning += thinking;
      yield { type: 'reasoning_delta', text: thinking };
    }
    const delta = contentText(choice.delta?.content);
    if (delta) {
      text += delta;
      yield { type: 'text_delta', text: delta };
    }
    const deltas = choice.delta?.tool_calls ?? [];
    for (const [position, call] of deltas.entries()) {
      const index = indexOf(call, position, deltas.length, calls);
      const current = calls[index] ?? {};
      calls[index] = current;
      if (call.id && !current.id) current.id = call.id;
      const name = call.function?.name;
      if (name && !current.name) current.name = name;
      const argumentsDelta = argumentsText(call.function?.arguments);
      current.arguments = (current.arguments ?? '') + argumentsDelta;
      const out: ModelChunk = { type: 'tool_call_delta', index, argumentsDelta };
      if (call.id) out.id = call.id;
      if (name) out.name = name;
      yield out;
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }

  const newId = options.newId ?? generateToolCallId;
  const toolCalls: ToolCall[] = calls
    .filter((call) => call !== undefined)
    .map((call) => ({ id: call.id || newId(), name: call.name ?? '', arguments: call.arguments || '{}' }));
  const response: ModelResponse = { text, finishReason: mapOpenAIFinishReason(finishReason, toolCalls.length > 0) };
  if (toolCalls.length > 0) response.toolCalls = toolCalls;
  if (reasoning) response.reasoning = [{ type: 'reasoning', text: reasoning, provider }];
  if (usage) response.usage = usage;
  yield { type: 'response', response };
}

function indexOf(
  call: OpenAIToolCallDelta,
  position: number,
  count: number,
  calls: readonly Partial<ToolCall>[],
): number {
  if (typeof call.index === 'number') return call.index;
  if (call.id) {
    const known = calls.findIndex((c) => c?.id === call.id);
    return known >= 0 ? known : calls.length;
  }
  if (count > 1) return position;
  return Math.max(0, calls.length - 1);
}

function streamError(provider: string, data: string): ModelError {
  const providerMessage = providerMessageOf(data);
  return new ModelError({
    message: `${provider} reported an error mid-stream${providerMessage ? `: ${providerMessage}` : ''}`,
    code: 'model_http',
    provider,
    retryable: false,
    providerMessage,
  });
}
