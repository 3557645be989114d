import type { ModelResponse } from '../../../src/index.js';
import { type RecordedRequest, startWireServer, type WireReply, type WireServer } from './wire-server.js';

const MODEL = 'qwen2.5:7b';
const CREATED = '2026-11-29T12:00:00.000000Z';

function toolCalls(response: ModelResponse) {
  return response.toolCalls?.map((call, index) => ({
    id: call.id,
    function: { index, name: call.name, arguments: JSON.parse(call.arguments) },
  }));
}

function done(response: ModelResponse): Record<string, unknown> {
  return {
    done: true,
    done_reason: response.finishReason === 'length' ? 'length' : 'stop',
    total_duration: 1_204_398_042,
    load_duration: 20_114_250,
    prompt_eval_count: response.usage?.promptTokens ?? 26,
    prompt_eval_duration: 130_079_000,
    eval_count: response.usage?.completionTokens ?? 8,
    eval_duration: 1_024_000_000,
  };
}

/** A whole /api/chat reply as Ollama sends it with `stream: false`. */
export function ollamaChat(response: ModelResponse): Record<string, unknown> {
  const calls = toolCalls(response);
  return {
    model: MODEL,
    created_at: CREATED,
    message: { role: 'assistant', content: response.text, ...(calls ? { tool_calls: calls } : {}) },
    ...done(response),
  };
}

/** NDJSON lines as Ollama streams them: content pieces, tool calls whole, then the `done` line with counts. */
export function ollamaStreamPieces(response: ModelResponse, options: { size?: number } = {}): string[] {
  const size = options.size ?? 4;
  const line = (message: Record<string, unknown>, extra: Record<string, unknown> = { done: false }) =>
    `${JSON.stringify({ model: MODEL, created_at: CREATED, message: { role: 'assistant', ...message }, ...extra })}\n`;
  const pieces: string[] = [];
  for (let i = 0; i < response.text.length; i += size) pieces.push(line({ content: response.text.slice(i, i + size) }));
  const calls = toolCalls(response);
  if (calls) pieces.push(line({ content: '', tool_calls: calls }));
  pieces.push(line({ content: '' }, done(response)));
  return pieces;
}

/** Formats a neutral reply the way Ollama would (it streams unless told `stream: false`). */
export function ollamaFormat(response: ModelResponse, request: RecordedRequest): WireReply {
  if (request.body.stream === false) return { kind: 'json', body: ollamaChat(response) };
  return { kind: 'stream', contentType: 'application/x-ndjson', pieces: ollamaStreamPieces(response) };
}

/** A fake Ollama /api/chat server on 127.0.0.1. */
export function startOllamaServer(): Promise<WireServer> {
  return startWireServer(ollamaFormat);
}
