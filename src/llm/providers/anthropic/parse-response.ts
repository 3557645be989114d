import type { ModelResponse, ProviderItem, ReasoningPart, ToolCall } from '../../../core/index.js';
import { generateToolCallId } from '../../generate-id.js';
import { parseError } from '../../http/index.js';
import { mapAnthropicStopReason } from './map-finish-reason.js';
import { anthropicCompactions, isProviderBlock, providerBlock } from './provider-blocks.js';
import { type AnthropicCounts, anthropicUsage, mergeCounts } from './read-usage.js';
import { AnthropicResponse } from './wire-schema.js';

/**
 * Reads a Messages API body into a ModelResponse (pure): text blocks joined, tool_use blocks as tool
 * calls, thinking and redacted_thinking blocks as reasoning with their signatures, cache counts in usage.
 * The API's own blocks (a tool search's `server_tool_use` and result) are kept as they came, and what
 * context editing cleared is reported as compactions.
 */
export function parseAnthropicResponse(body: unknown, options: { provider: string }): ModelResponse {
  const parsed = AnthropicResponse.safeParse(body);
  if (!parsed.success) {
    throw parseError(options.provider, 'a response of unexpected shape (no content array)', JSON.stringify(body));
  }
  let text = '';
  const toolCalls: ToolCall[] = [];
  const reasoning: ReasoningPart[] = [];
  const providerItems: ProviderItem[] = [];
  const raw = (body as { content: Record<string, unknown>[] }).content;
  for (const [index, block] of parsed.data.content.entries()) {
    if (isProviderBlock(block.type)) providerItems.push(providerBlock(raw[index]));
    if (block.type === 'text') text += block.text ?? '';
    if (block.type === 'thinking') {
      reasoning.push({
        type: 'reasoning',
        text: block.thinking ?? '',
        provider: 'anthropic',
        signature: block.signature ?? '',
      });
    }
    if (block.type === 'redacted_thinking') {
      reasoning.push({ type: 'reasoning', text: '', provider: 'anthropic', encrypted: block.data ?? '' });
    }
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
  if (reasoning.length > 0) response.reasoning = reasoning;
  if (providerItems.length > 0) response.providerItems = providerItems;
  const compactions = anthropicCompactions(parsed.data.context_management, providerItems);
  if (compactions.length > 0) response.compactions = compactions;
  const counts: AnthropicCounts = {};
  mergeCounts(counts, parsed.data.usage);
  const usage = anthropicUsage(counts);
  if (usage) response.usage = usage;
  return response;
}
