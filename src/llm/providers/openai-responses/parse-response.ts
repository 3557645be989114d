import type {
  FinishReason,
  ModelResponse,
  ProviderCompaction,
  ProviderItem,
  ReasoningPart,
  ToolCall,
  Usage,
} from '../../../core/index.js';
import { generateToolCallId } from '../../generate-id.js';
import { parseError } from '../../http/index.js';
import { ResponsesResponse } from './wire-schema.js';

/**
 * Reads a Response object into a ModelResponse (pure): message text joined, function calls by
 * `call_id`, reasoning items kept with their id, summary and encrypted content so they can go back.
 * Every other item (a `compaction` item, a hosted `tool_search_call` and its `tool_search_output`) is
 * kept as it came, to go back as it came; a compaction item also says the server compacted.
 */
export function parseResponsesResponse(body: unknown, options: { provider: string }): ModelResponse {
  const parsed = ResponsesResponse.safeParse(body);
  if (!parsed.success) {
    throw parseError(options.provider, 'a response of unexpected shape (no output array)', JSON.stringify(body));
  }
  const { output, usage, status, incomplete_details } = parsed.data;
  let text = '';
  const toolCalls: ToolCall[] = [];
  const reasoning: ReasoningPart[] = [];
  const providerItems: ProviderItem[] = [];
  const compactions: ProviderCompaction[] = [];
  const raw = (body as { output: Record<string, unknown>[] }).output;
  for (const [index, item] of output.entries()) {
    if (item.type === 'message') {
      for (const part of item.content ?? []) if (part.type === 'output_text') text += part.text ?? '';
    } else if (item.type === 'function_call') {
      toolCalls.push({
        id: item.call_id || item.id || generateToolCallId(),
        name: item.name ?? '',
        arguments: typeof item.arguments === 'string' && item.arguments ? item.arguments : '{}',
      });
    } else if (item.type === 'reasoning') {
      const part: ReasoningPart = {
        type: 'reasoning',
        text: (item.summary ?? []).map((s) => s.text ?? '').join('\n'),
        provider: 'openai-responses',
      };
      if (item.id) part.id = item.id;
      if (item.encrypted_content) part.encrypted = item.encrypted_content;
      reasoning.push(part);
    } else {
      providerItems.push({ type: 'provider_item', provider: 'openai-responses', item: raw[index] });
      if (item.type === 'compaction') compactions.push({ kind: 'compaction' });
    }
  }
  const response: ModelResponse = {
    text,
    finishReason: finishReasonOf(status, incomplete_details?.reason, toolCalls.length > 0),
  };
  if (toolCalls.length > 0) response.toolCalls = toolCalls;
  if (reasoning.length > 0) response.reasoning = reasoning;
  if (providerItems.length > 0) response.providerItems = providerItems;
  if (compactions.length > 0) response.compactions = compactions;
  const counted = readResponsesUsage(usage);
  if (counted) response.usage = counted;
  return response;
}

function finishReasonOf(
  status: string | null | undefined,
  reason: string | null | undefined,
  calls: boolean,
): FinishReason {
  if (status === 'incomplete') return reason === 'content_filter' ? 'content_filter' : 'length';
  if (status === 'failed') return 'error';
  return calls ? 'tool_calls' : 'stop';
}

/** Usage: output tokens include reasoning; input tokens include the cached ones. */
function readResponsesUsage(usage: ResponsesResponse['usage']): Usage | undefined {
  if (usage?.input_tokens == null || usage.output_tokens == null) return undefined;
  const out: Usage = { promptTokens: usage.input_tokens, completionTokens: usage.output_tokens };
  const cached = usage.input_tokens_details?.cached_tokens ?? 0;
  const reasoning = usage.output_tokens_details?.reasoning_tokens ?? 0;
  if (cached > 0) out.cacheReadTokens = cached;
  if (reasoning > 0) out.reasoningTokens = reasoning;
  return out;
}
