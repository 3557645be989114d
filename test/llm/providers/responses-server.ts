import type { ModelResponse } from '../../../src/index.js';
import { type RecordedRequest, startWireServer, type WireReply, type WireServer } from './wire-server.js';

const CREATED = 1_764_400_000;

/** The output items of a reply: reasoning items, a message, then function calls (API reference order). */
function outputItems(response: ModelResponse): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  for (const [i, part] of (response.reasoning ?? []).entries()) {
    const item: Record<string, unknown> = {
      id: part.id ?? `rs_${i}`,
      type: 'reasoning',
      summary: part.text ? [{ type: 'summary_text', text: part.text }] : [],
    };
    if (part.encrypted) item.encrypted_content = part.encrypted;
    items.push(item);
  }
  if (response.text) {
    items.push({
      id: 'msg_fake',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: response.text, annotations: [] }],
    });
  }
  for (const call of response.toolCalls ?? []) {
    items.push({
      id: `fc_${call.id}`,
      type: 'function_call',
      status: 'completed',
      call_id: call.id,
      name: call.name,
      arguments: call.arguments,
    });
  }
  return items;
}

/** A Response object as the API returns it. */
export function responsesBody(response: ModelResponse, model = 'gpt-5-mini-2025-08-07'): Record<string, unknown> {
  const usage = response.usage ?? { promptTokens: 30, completionTokens: 12 };
  const incomplete = response.finishReason === 'length';
  return {
    id: 'resp_fake',
    object: 'response',
    created_at: CREATED,
    status: incomplete ? 'incomplete' : 'completed',
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    error: null,
    model,
    output: outputItems(response),
    parallel_tool_calls: true,
    usage: {
      input_tokens: usage.promptTokens,
      input_tokens_details: { cached_tokens: usage.cacheReadTokens ?? 0 },
      output_tokens: usage.completionTokens,
      output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
      total_tokens: usage.promptTokens + usage.completionTokens,
    },
  };
}

function split(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}

/** The typed SSE events the Responses API streams for a reply, ending with `response.completed`. */
export function responsesStreamPieces(response: ModelResponse, options: { size?: number } = {}): string[] {
  const size = options.size ?? 5;
  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`;
  const body = responsesBody(response);
  const pieces = [event('response.created', { response: { ...body, status: 'in_progress', output: [], usage: null } })];
  for (const [output_index, item] of (body.output as Record<string, unknown>[]).entries()) {
    const item_id = item.id;
    if (item.type === 'reasoning') {
      pieces.push(event('response.output_item.added', { output_index, item: { ...item, summary: [] } }));
      for (const [summary_index, summary] of (item.summary as { text: string }[]).entries()) {
        const part = { type: 'summary_text', text: '' };
        pieces.push(event('response.reasoning_summary_part.added', { item_id, output_index, summary_index, part }));
        for (const delta of split(summary.text, size)) {
          pieces.push(event('response.reasoning_summary_text.delta', { item_id, output_index, summary_index, delta }));
        }
        const { text } = summary;
        pieces.push(event('response.reasoning_summary_text.done', { item_id, output_index, summary_index, text }));
        pieces.push(
          event('response.reasoning_summary_part.done', { item_id, output_index, summary_index, part: summary }),
        );
      }
    } else if (item.type === 'message') {
      pieces.push(
        event('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } }),
      );
      pieces.push(
        event('response.content_part.added', {
          item_id,
          output_index,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [] },
        }),
      );
      for (const delta of split(response.text, size)) {
        pieces.push(
          event('response.output_text.delta', { item_id, output_index, content_index: 0, delta, logprobs: [] }),
        );
      }
      pieces.push(
        event('response.output_text.done', {
          item_id,
          output_index,
          content_index: 0,
          text: response.text,
          logprobs: [],
        }),
      );
      pieces.push(
        event('response.content_part.done', {
          item_id,
          output_index,
          content_index: 0,
          part: (item.content as unknown[])[0],
        }),
      );
    } else {
      pieces.push(
        event('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } }),
      );
      for (const delta of split(String(item.arguments), size)) {
        pieces.push(event('response.function_call_arguments.delta', { item_id, output_index, delta }));
      }
      pieces.push(event('response.function_call_arguments.done', { item_id, output_index, arguments: item.arguments }));
    }
    pieces.push(event('response.output_item.done', { output_index, item }));
  }
  pieces.push(event(body.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: body }));
  return pieces;
}

/** Formats a neutral reply as the Responses API would, streamed when the request asked. */
export function responsesFormat(response: ModelResponse, request: RecordedRequest): WireReply {
  if (!Array.isArray(request.body.input) && typeof request.body.input !== 'string') {
    return {
      kind: 'json',
      status: 400,
      body: {
        error: {
          message: "Missing required parameter: 'input'.",
          type: 'invalid_request_error',
          param: 'input',
          code: 'missing_required_parameter',
        },
      },
    };
  }
  if (request.body.stream) return { kind: 'stream', pieces: responsesStreamPieces(response) };
  return { kind: 'json', body: responsesBody(response) };
}

/** A fake OpenAI Responses API server on 127.0.0.1. */
export function startResponsesServer(): Promise<WireServer> {
  return startWireServer(responsesFormat);
}
