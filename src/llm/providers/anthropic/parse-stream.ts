import {
  type ModelChunk,
  ModelError,
  type ModelResponse,
  type ProviderItem,
  type ReasoningPart,
  type ToolCall,
} from '../../../core/index.js';
import { generateToolCallId } from '../../generate-id.js';
import { parseError, redact, type SseEvent, tryParseJson } from '../../http/index.js';
import { mapAnthropicStopReason } from './map-finish-reason.js';
import { anthropicCompactions, isProviderBlock, providerBlock } from './provider-blocks.js';
import { type AnthropicCounts, anthropicUsage, mergeCounts } from './read-usage.js';
import { type AnthropicContextManagement, AnthropicEvent } from './wire-schema.js';

/** One of the API's own blocks as it streams: its start, and the input JSON that follows it. */
interface ServerBlock {
  block: Record<string, unknown>;
  json: string;
}

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
 * `response` chunk. Thinking streams as `reasoning_delta` chunks and ends as reasoning parts with
 * their signatures (redacted thinking arrives whole). The API's own blocks (a tool search's
 * `server_tool_use` and result, a compaction) are assembled and kept as they came. A line that is
 * not JSON, or an `error` event, throws a ModelError.
 */
export async function* parseAnthropicStream(
  events: AsyncIterable<SseEvent>,
  options: { provider: string; secrets?: readonly (string | undefined)[] },
): AsyncGenerator<ModelChunk, void, undefined> {
  const { provider } = options;
  let text = '';
  const tools = new Map<number, ToolBlock>();
  const thinking = new Map<number, ReasoningPart>();
  const server = new Map<number, ServerBlock>();
  let management: AnthropicContextManagement;
  let stopReason: string | null | undefined;
  const counts: AnthropicCounts = {};

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
        mergeCounts(counts, event.message?.usage);
        break;
      case 'content_block_start': {
        const block = event.content_block;
        if (block && isProviderBlock(block.type)) {
          const start = (json.value as { content_block: Record<string, unknown> }).content_block;
          server.set(event.index ?? server.size, { block: { ...start }, json: '' });
        }
        if (block?.type === 'text' && block.text) {
          text += block.text;
          yield { type: 'text_delta', text: block.text };
        }
        if (block?.type === 'thinking') {
          const part: ReasoningPart = { type: 'reasoning', text: block.thinking ?? '', provider, signature: '' };
          thinking.set(event.index ?? thinking.size, part);
          if (part.text) yield { type: 'reasoning_delta', text: part.text };
        }
        if (block?.type === 'redacted_thinking') {
          thinking.set(event.index ?? thinking.size, {
            type: 'reasoning',
            text: '',
            provider,
            encrypted: block.data ?? '',
          });
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
        if (delta?.type === 'thinking_delta' || delta?.type === 'signature_delta') {
          const part = thinking.get(event.index ?? -1);
          if (!part) throw parseError(provider, `a ${delta.type} for an unknown content block`, sse.data);
          if (delta.signature) part.signature = (part.signature ?? '') + delta.signature;
          if (delta.thinking) {
            part.text += delta.thinking;
            yield { type: 'reasoning_delta', text: delta.thinking };
          }
        }
        const own = server.get(event.index ?? -1);
        if (own && delta?.type === 'input_json_delta') own.json += delta.partial_json ?? '';
        else if (own && delta?.type === 'compaction_delta') {
          if (delta.content != null) own.block.content = `${own.block.content ?? ''}${delta.content}`;
          if (delta.encrypted_content != null) own.block.encrypted_content = delta.encrypted_content;
        } else if (delta?.type === 'input_json_delta' && delta.partial_json) {
          const tool = tools.get(event.index ?? -1);
          if (!tool) throw parseError(provider, 'an input_json_delta for an unknown content block', sse.data);
          tool.json += delta.partial_json;
          yield { type: 'tool_call_delta', index: tool.toolIndex, argumentsDelta: delta.partial_json };
        }
        break;
      }
      case 'message_delta':
        management = event.context_management ?? management;
        stopReason = event.delta?.stop_reason ?? stopReason;
        mergeCounts(counts, event.usage);
        break;
      default:
        // ping, content_block_stop: nothing to emit.
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
  // Blocks in the order the model wrote them, since the API checks them in that order.
  const reasoning = [...thinking.entries()].sort(([a], [b]) => a - b).map(([, part]) => part);
  if (reasoning.length > 0) response.reasoning = reasoning;
  const providerItems: ProviderItem[] = [...server.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, own]) => providerBlock(own.json ? { ...own.block, input: jsonInput(own.json) } : own.block));
  if (providerItems.length > 0) response.providerItems = providerItems;
  const compactions = anthropicCompactions(management, providerItems);
  if (compactions.length > 0) response.compactions = compactions;
  const usage = anthropicUsage(counts);
  if (usage) response.usage = usage;
  yield { type: 'response', response };
}

/** A server tool's streamed input, as the object it spells (`{}` when it is not JSON). */
function jsonInput(text: string): unknown {
  const parsed = tryParseJson(text);
  return parsed.ok ? parsed.value : {};
}

function startArguments(input: unknown): string {
  if (typeof input === 'object' && input !== null && Object.keys(input).length > 0) return JSON.stringify(input);
  return '{}';
}
