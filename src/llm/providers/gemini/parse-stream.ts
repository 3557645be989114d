import {
  type ModelChunk,
  ModelError,
  type ModelResponse,
  type ReasoningPart,
  type ToolCall,
  type Usage,
} from '../../../core/index.js';
import { generateToolCallId } from '../../generate-id.js';
import { parseError, redact, type SseEvent, tryParseJson } from '../../http/index.js';
import { mapGeminiFinishReason } from './map-finish-reason.js';
import { GeminiResponse, type GeminiUsage } from './wire-schema.js';

/** What reading Gemini replies needs. */
export interface GeminiReadOptions {
  provider: string;
  secrets?: readonly (string | undefined)[];
  newId?: () => string;
}

/** The reply assembled so far: whole replies and streams both fold their parts into one. */
interface Draft {
  text: string;
  thoughts: string;
  signatures: ReasoningPart[];
  toolCalls: ToolCall[];
  finishReason?: string | null;
  usage?: Usage;
}

/** One streamed piece of a reply, as the parts of one response chunk yield it. */
type Piece = { type: 'text_delta' | 'reasoning_delta'; text: string } | { type: 'tool_call'; call: ToolCall };

/**
 * Turns Gemini `streamGenerateContent?alt=sse` events into ModelChunks (pure). Text and thought
 * parts stream as deltas; function calls arrive whole, each one delta. Thought signatures are kept
 * as reasoning parts naming the part they were on (`text` or `call:<id>`), so they go back there.
 */
export async function* parseGeminiStream(
  events: AsyncIterable<SseEvent>,
  options: GeminiReadOptions,
): AsyncGenerator<ModelChunk, void, undefined> {
  const draft: Draft = { text: '', thoughts: '', signatures: [], toolCalls: [] };
  for await (const event of events) {
    const json = tryParseJson(event.data);
    if (!json.ok) throw parseError(options.provider, 'a stream line that is not JSON', event.data);
    for (const piece of readChunk(json.value, event.data, draft, options)) {
      if (piece.type === 'tool_call') {
        const { call } = piece;
        const index = draft.toolCalls.length - 1;
        yield { type: 'tool_call_delta', index, id: call.id, name: call.name, argumentsDelta: call.arguments };
      } else yield piece;
    }
  }
  yield { type: 'response', response: finish(draft, options.provider) };
}

/** Reads a whole `generateContent` body into a ModelResponse (pure). */
export function parseGeminiResponse(body: unknown, options: GeminiReadOptions): ModelResponse {
  const draft: Draft = { text: '', thoughts: '', signatures: [], toolCalls: [] };
  readChunk(body, JSON.stringify(body), draft, options);
  return finish(draft, options.provider);
}

function readChunk(value: unknown, raw: string, draft: Draft, options: GeminiReadOptions): Piece[] {
  const parsed = GeminiResponse.safeParse(value);
  if (!parsed.success) throw parseError(options.provider, 'a reply of unexpected shape', raw);
  const chunk = parsed.data;
  if (chunk.error) {
    const providerMessage = redact(chunk.error.message ?? raw, options.secrets);
    throw new ModelError({
      message: `${options.provider} reported ${chunk.error.status ?? 'an error'}: ${providerMessage}`,
      provider: options.provider,
      retryable: chunk.error.code === 429 || (chunk.error.code ?? 0) >= 500,
      providerMessage,
    });
  }
  if (chunk.promptFeedback?.blockReason && !chunk.candidates?.length) {
    draft.finishReason = 'SAFETY';
  }
  draft.usage = readGeminiUsage(chunk.usageMetadata) ?? draft.usage;
  const candidate = chunk.candidates?.[0];
  if (!candidate) return [];
  if (candidate.finishReason) draft.finishReason = candidate.finishReason;
  const pieces: Piece[] = [];
  const newId = options.newId ?? generateToolCallId;
  for (const part of candidate.content?.parts ?? []) {
    if (part.functionCall) {
      const call: ToolCall = {
        id: part.functionCall.id || newId(),
        name: part.functionCall.name ?? '',
        arguments: JSON.stringify(part.functionCall.args ?? {}),
      };
      draft.toolCalls.push(call);
      pieces.push({ type: 'tool_call', call });
      if (part.thoughtSignature) draft.signatures.push(signature(part.thoughtSignature, `call:${call.id}`, options));
      continue;
    }
    if (part.thought) {
      if (part.text) {
        draft.thoughts += part.text;
        pieces.push({ type: 'reasoning_delta', text: part.text });
      }
      if (part.thoughtSignature) draft.signatures.push(signature(part.thoughtSignature, 'thought', options));
      continue;
    }
    if (part.text) {
      draft.text += part.text;
      pieces.push({ type: 'text_delta', text: part.text });
    }
    if (part.thoughtSignature) draft.signatures.push(signature(part.thoughtSignature, 'text', options));
  }
  return pieces;
}

function signature(value: string, id: string, options: GeminiReadOptions): ReasoningPart {
  return { type: 'reasoning', text: '', provider: options.provider, signature: value, id };
}

function finish(draft: Draft, provider: string): ModelResponse {
  const response: ModelResponse = {
    text: draft.text,
    finishReason: mapGeminiFinishReason(draft.finishReason, draft.toolCalls.length > 0),
  };
  if (draft.toolCalls.length > 0) response.toolCalls = draft.toolCalls;
  const reasoning: ReasoningPart[] = [];
  if (draft.thoughts) reasoning.push({ type: 'reasoning', text: draft.thoughts, provider });
  reasoning.push(...draft.signatures);
  if (reasoning.length > 0) response.reasoning = reasoning;
  if (draft.usage) response.usage = draft.usage;
  return response;
}

/**
 * Usage from `usageMetadata`. Gemini counts thinking apart from the candidates, so it is added to
 * the completion (budgets and cost see every token); cached tokens are part of the prompt count.
 */
export function readGeminiUsage(usage: GeminiUsage): Usage | undefined {
  if (usage?.promptTokenCount == null) return undefined;
  const thoughts = usage.thoughtsTokenCount ?? 0;
  const out: Usage = {
    promptTokens: usage.promptTokenCount + (usage.toolUsePromptTokenCount ?? 0),
    completionTokens: (usage.candidatesTokenCount ?? 0) + thoughts,
  };
  if (thoughts > 0) out.reasoningTokens = thoughts;
  if (usage.cachedContentTokenCount) out.cacheReadTokens = usage.cachedContentTokenCount;
  return out;
}
