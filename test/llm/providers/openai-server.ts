import type { ModelResponse } from '../../../src/index.js';
import { type RecordedRequest, startWireServer, type WireReply, type WireServer } from './wire-server.js';

const CREATED = 1_764_400_000;

/** A chat.completion body as OpenAI sends it. */
export function openaiCompletion(response: ModelResponse, model = 'gpt-4o-mini-2024-07-18'): Record<string, unknown> {
  const toolCalls = response.toolCalls?.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    id: 'chatcmpl-AbC123',
    object: 'chat.completion',
    created: CREATED,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: response.text === '' && toolCalls ? null : response.text,
          ...(response.reasoning ? { reasoning_content: response.reasoning.map((r) => r.text).join('') } : {}),
          refusal: null,
          ...(toolCalls ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: response.finishReason ?? (toolCalls ? 'tool_calls' : 'stop'),
      },
    ],
    usage: response.usage ? wireUsage(response.usage) : undefined,
    system_fingerprint: 'fp_0ba0d124f1',
  };
}

/** Usage as OpenAI reports it: cached prompt tokens and reasoning tokens in their details objects. */
function wireUsage(usage: NonNullable<ModelResponse['usage']>): Record<string, unknown> {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheReadTokens ?? 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0, audio_tokens: 0 },
  };
}

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  const body = {
    id: 'chatcmpl-AbC123',
    object: 'chat.completion.chunk',
    created: CREATED,
    model: 'gpt-4o-mini-2024-07-18',
    system_fingerprint: 'fp_0ba0d124f1',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

function split(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}

/** SSE pieces as OpenAI streams them (the text in `deltas`, or in pieces of `size`): role, content deltas, tool calls with arguments in small fragments, finish, usage, [DONE]. */
export function openaiStreamPieces(
  response: ModelResponse,
  options: { size?: number; usage?: boolean; deltas?: readonly string[] } = {},
): string[] {
  const size = options.size ?? 4;
  const pieces = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const part of response.reasoning ?? []) {
    for (const piece of split(part.text, size)) pieces.push(chunk({ reasoning_content: piece }));
  }
  for (const part of options.deltas ?? split(response.text, size)) pieces.push(chunk({ content: part }));
  for (const [index, call] of (response.toolCalls ?? []).entries()) {
    pieces.push(
      chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    for (const part of split(call.arguments, size))
      pieces.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
  }
  pieces.push(chunk({}, response.finishReason ?? (response.toolCalls?.length ? 'tool_calls' : 'stop')));
  if (options.usage !== false && response.usage) {
    const usage = wireUsage(response.usage);
    pieces.push(
      `data: ${JSON.stringify({ id: 'chatcmpl-AbC123', object: 'chat.completion.chunk', choices: [], usage })}\n\n`,
    );
  }
  pieces.push('data: [DONE]\n\n');
  return pieces;
}

/** Formats a neutral reply the way OpenAI would, streamed when the request asked for it. */
export function openaiFormat(response: ModelResponse, request: RecordedRequest): WireReply {
  if (request.body.stream) {
    const options = request.body.stream_options as { include_usage?: boolean } | undefined;
    return { kind: 'stream', pieces: openaiStreamPieces(response, { usage: options?.include_usage === true }) };
  }
  return { kind: 'json', body: openaiCompletion(response) };
}

/** A fake OpenAI chat-completions server on 127.0.0.1. */
export function startOpenAIServer(): Promise<WireServer> {
  return startWireServer(openaiFormat);
}
