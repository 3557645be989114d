import type { ModelChunk, ModelResponse } from '../core/index.js';

/**
 * A whole response as the chunks a stream would have produced. Used when a server ignores
 * `stream: true` and answers with one JSON body (some proxies and older compat servers do).
 */
export function responseChunks(response: ModelResponse): ModelChunk[] {
  const chunks: ModelChunk[] = [];
  for (const part of response.reasoning ?? []) {
    if (part.text) chunks.push({ type: 'reasoning_delta', text: part.text });
  }
  if (response.text) chunks.push({ type: 'text_delta', text: response.text });
  for (const [index, call] of (response.toolCalls ?? []).entries()) {
    chunks.push({ type: 'tool_call_delta', index, id: call.id, name: call.name, argumentsDelta: call.arguments });
  }
  chunks.push({ type: 'response', response });
  return chunks;
}

/** True when a response body is JSON rather than an event stream. */
export function isJsonResponse(response: Response): boolean {
  return /\bapplication\/json\b/i.test(response.headers.get('content-type') ?? '');
}
