import {
  type ModelChunk,
  ModelError,
  type ModelRequest,
  type ModelResponse,
  type ToolCall,
  type Usage,
} from '../../../core/index.js';
import { withUsage } from '../../estimate-usage.js';
import { generateToolCallId } from '../../generate-id.js';
import { parseError, redact, tryParseJson } from '../../http/index.js';
import { mapOllamaDoneReason } from './map-finish-reason.js';
import { OllamaChatChunk } from './wire-schema.js';

/** Reads one /api/chat object (a whole reply or one NDJSON line); throws a ModelError for bad shapes and `error` fields. */
export function readOllamaChunk(
  value: unknown,
  raw: string,
  options: { provider: string; secrets?: readonly (string | undefined)[] },
): OllamaChatChunk {
  const parsed = OllamaChatChunk.safeParse(value);
  if (!parsed.success) throw parseError(options.provider, 'a reply of unexpected shape', raw);
  if (parsed.data.error) {
    const providerMessage = redact(parsed.data.error, options.secrets);
    throw new ModelError({
      message: `${options.provider} reported an error: ${providerMessage}`,
      provider: options.provider,
      retryable: false,
      providerMessage,
    });
  }
  return parsed.data;
}

/** Ollama's tool calls as ToolCalls: object arguments stringified, missing ids generated. */
export function ollamaToolCalls(chunk: OllamaChatChunk): ToolCall[] {
  return (chunk.message?.tool_calls ?? []).map((call) => {
    const args = call.function.arguments;
    return {
      id: call.id || generateToolCallId(),
      name: call.function.name ?? '',
      arguments: typeof args === 'string' ? args || '{}' : JSON.stringify(args ?? {}),
    };
  });
}

/**
 * Turns Ollama's NDJSON lines into ModelChunks (pure). Tool calls arrive whole, so each becomes a
 * single delta. Ends with one `response` chunk carrying the counts from the `done` line; a count
 * Ollama left out is estimated from `request`.
 */
export async function* parseOllamaStream(
  lines: AsyncIterable<string>,
  options: {
    provider: string;
    request: Pick<ModelRequest, 'messages' | 'tools'>;
    secrets?: readonly (string | undefined)[];
  },
): AsyncGenerator<ModelChunk, void, undefined> {
  let text = '';
  let reasoning = '';
  const toolCalls: ToolCall[] = [];
  let last: OllamaChatChunk | undefined;
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const json = tryParseJson(line);
    if (!json.ok) throw parseError(options.provider, 'a stream line that is not JSON', line);
    const chunk = readOllamaChunk(json.value, line, options);
    const thinking = chunk.message?.thinking;
    if (thinking) {
      reasoning += thinking;
      yield { type: 'reasoning_delta', text: thinking };
    }
    const content = chunk.message?.content;
    if (content) {
      text += content;
      yield { type: 'text_delta', text: content };
    }
    for (const call of ollamaToolCalls(chunk)) {
      const index = toolCalls.push(call) - 1;
      yield { type: 'tool_call_delta', index, id: call.id, name: call.name, argumentsDelta: call.arguments };
    }
    last = chunk;
    if (chunk.done) break;
  }
  const response: ModelResponse = { text, finishReason: mapOllamaDoneReason(last?.done_reason, toolCalls.length > 0) };
  if (toolCalls.length > 0) response.toolCalls = toolCalls;
  if (reasoning) response.reasoning = [{ type: 'reasoning', text: reasoning, provider: options.provider }];
  yield { type: 'response', response: withUsage(response, options.request, usageOf(last)) };
}

/** Ollama omits prompt_eval_count when the prompt was cached, so either count may be missing. */
export function usageOf(chunk: OllamaChatChunk | undefined): Partial<Usage> {
  return { promptTokens: chunk?.prompt_eval_count ?? undefined, completionTokens: chunk?.eval_count ?? undefined };
}

/** Reads a whole (non-streamed) /api/chat reply into a ModelResponse with usage (pure). */
export function parseOllamaResponse(
  body: unknown,
  options: {
    provider: string;
    request: Pick<ModelRequest, 'messages' | 'tools'>;
    secrets?: readonly (string | undefined)[];
  },
): ModelResponse {
  const chunk = readOllamaChunk(body, JSON.stringify(body), options);
  if (!chunk.message) throw parseError(options.provider, 'a reply without a message', JSON.stringify(body));
  const toolCalls = ollamaToolCalls(chunk);
  const response: ModelResponse = {
    text: chunk.message.content ?? '',
    finishReason: mapOllamaDoneReason(chunk.done_reason, toolCalls.length > 0),
  };
  if (toolCalls.length > 0) response.toolCalls = toolCalls;
  if (chunk.message.thinking) {
    response.reasoning = [{ type: 'reasoning', text: chunk.message.thinking, provider: options.provider }];
  }
  return withUsage(response, options.request, usageOf(chunk));
}
