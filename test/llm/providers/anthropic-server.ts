import type { ModelResponse } from '../../../src/index.js';
import { createPromptCache } from './anthropic-cache.js';
import { type RecordedRequest, startWireServer, type WireReply, type WireServer } from './wire-server.js';

/** Usage counts to report, when the cache decided them. */
export interface CacheCounts {
  input: number;
  read: number;
  write: number;
}

const STOP: Record<string, string> = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use' };

function stopReason(response: ModelResponse): string {
  return STOP[response.finishReason ?? (response.toolCalls?.length ? 'tool_calls' : 'stop')] ?? 'end_turn';
}

/** A Messages API body as Anthropic sends it. */
export function anthropicMessage(
  response: ModelResponse,
  model = 'claude-sonnet-4-5-20250929',
  counts?: CacheCounts,
): Record<string, unknown> {
  const content: Record<string, unknown>[] = [];
  for (const part of response.reasoning ?? []) {
    if (part.encrypted !== undefined) content.push({ type: 'redacted_thinking', data: part.encrypted });
    else content.push({ type: 'thinking', thinking: part.text, signature: part.signature ?? '' });
  }
  if (response.text) content.push({ type: 'text', text: response.text });
  for (const call of response.toolCalls ?? []) {
    content.push({ type: 'tool_use', id: call.id, name: call.name, input: JSON.parse(call.arguments) });
  }
  return {
    id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReason(response),
    stop_sequence: null,
    usage: {
      input_tokens: counts?.input ?? response.usage?.promptTokens ?? 25,
      output_tokens: response.usage?.completionTokens ?? 10,
      cache_creation_input_tokens: counts?.write ?? 0,
      cache_read_input_tokens: counts?.read ?? 0,
    },
  };
}

const event = (type: string, data: Record<string, unknown>) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

function split(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}

/** The SSE events Anthropic streams for a reply, tool inputs in small `input_json_delta` fragments. */
export function anthropicStreamPieces(
  response: ModelResponse,
  options: { size?: number; counts?: CacheCounts } = {},
): string[] {
  const size = options.size ?? 5;
  const message = anthropicMessage(response, undefined, options.counts) as {
    usage: { input_tokens: number; output_tokens: number };
  };
  const pieces = [
    event('message_start', {
      message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } },
    }),
  ];
  let index = 0;
  for (const part of response.reasoning ?? []) {
    if (part.encrypted !== undefined) {
      pieces.push(
        event('content_block_start', { index, content_block: { type: 'redacted_thinking', data: part.encrypted } }),
      );
    } else {
      pieces.push(event('content_block_start', { index, content_block: { type: 'thinking', thinking: '' } }));
      for (const piece of split(part.text, size)) {
        pieces.push(event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } }));
      }
      pieces.push(
        event('content_block_delta', { index, delta: { type: 'signature_delta', signature: part.signature ?? '' } }),
      );
    }
    pieces.push(event('content_block_stop', { index }));
    index++;
  }
  if (response.text) {
    pieces.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    pieces.push(event('ping', {}));
    for (const part of split(response.text, size)) {
      pieces.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: part } }));
    }
    pieces.push(event('content_block_stop', { index }));
    index++;
  }
  for (const call of response.toolCalls ?? []) {
    pieces.push(
      event('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
      }),
    );
    pieces.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } }));
    for (const part of split(call.arguments, size)) {
      pieces.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } }));
    }
    pieces.push(event('content_block_stop', { index }));
    index++;
  }
  pieces.push(
    event('message_delta', {
      delta: { stop_reason: stopReason(response), stop_sequence: null },
      usage: { output_tokens: message.usage.output_tokens },
    }),
  );
  pieces.push(event('message_stop', {}));
  return pieces;
}

/**
 * A fake Anthropic Messages API server on 127.0.0.1. Neutral replies are formatted as Anthropic
 * would, streamed when the request asked; a request with `cache_control` breakpoints is counted by a
 * prompt cache that behaves as the vendor documents (see anthropic-cache.ts); with `countAllPrompts`,
 * requests without breakpoints are counted too (characters / 4) rather than given a fixed 25.
 */
export function startAnthropicServer(
  options: { minCacheTokens?: number; countAllPrompts?: boolean } = {},
): Promise<WireServer> {
  const cache = createPromptCache({ minTokens: options.minCacheTokens, countAll: options.countAllPrompts });
  return startWireServer((response: ModelResponse, request: RecordedRequest): WireReply => {
    const counts = response.usage ? undefined : cache.account(request.body);
    if (request.body.stream) return { kind: 'stream', pieces: anthropicStreamPieces(response, { counts }) };
    return { kind: 'json', body: anthropicMessage(response, undefined, counts) };
  });
}
