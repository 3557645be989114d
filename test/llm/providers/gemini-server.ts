import type { ModelResponse } from '../../../src/index.js';
import { type RecordedRequest, startWireServer, type WireReply, type WireServer } from './wire-server.js';

const FINISH: Record<string, string> = {
  stop: 'STOP',
  tool_calls: 'STOP',
  length: 'MAX_TOKENS',
  content_filter: 'SAFETY',
};

/**
 * The parts Gemini sends for a reply: thought summaries (`thought: true`), text, then function
 * calls; a reasoning part with a signature rides on the part it names (`text` or `call:<id>`).
 */
function partsOf(response: ModelResponse): Record<string, unknown>[] {
  const signatureFor = (id: string) => response.reasoning?.find((r) => r.id === id)?.signature;
  const parts: Record<string, unknown>[] = [];
  for (const part of response.reasoning ?? []) if (part.text) parts.push({ text: part.text, thought: true });
  if (response.text) {
    const signature = signatureFor('text');
    parts.push(signature ? { text: response.text, thoughtSignature: signature } : { text: response.text });
  }
  for (const call of response.toolCalls ?? []) {
    const signature = signatureFor(`call:${call.id}`);
    const part: Record<string, unknown> = { functionCall: { name: call.name, args: JSON.parse(call.arguments) } };
    if (signature) part.thoughtSignature = signature;
    parts.push(part);
  }
  return parts;
}

/** `usageMetadata` as Gemini reports it: thoughts apart from candidates, cached tokens inside the prompt. */
function usageMetadata(response: ModelResponse): Record<string, unknown> {
  const usage = response.usage ?? { promptTokens: 21, completionTokens: 9 };
  const thoughts = usage.reasoningTokens ?? 0;
  const metadata: Record<string, unknown> = {
    promptTokenCount: usage.promptTokens,
    candidatesTokenCount: usage.completionTokens - thoughts,
    totalTokenCount: usage.promptTokens + usage.completionTokens,
  };
  if (thoughts) metadata.thoughtsTokenCount = thoughts;
  if (usage.cacheReadTokens) metadata.cachedContentTokenCount = usage.cacheReadTokens;
  return metadata;
}

/** A GenerateContentResponse body. */
export function geminiResponse(response: ModelResponse, model = 'gemini-2.5-flash'): Record<string, unknown> {
  return {
    candidates: [
      {
        content: { parts: partsOf(response), role: 'model' },
        finishReason: FINISH[response.finishReason ?? 'stop'] ?? 'STOP',
        index: 0,
      },
    ],
    usageMetadata: usageMetadata(response),
    modelVersion: model,
    responseId: 'fake-response-id',
  };
}

/** The SSE events of `streamGenerateContent?alt=sse`: text in pieces, then calls, finish and usage last. */
export function geminiStreamPieces(response: ModelResponse, options: { size?: number } = {}): string[] {
  const size = options.size ?? 6;
  const data = (body: unknown) => `data: ${JSON.stringify(body)}\r\n\r\n`;
  const chunk = (parts: Record<string, unknown>[], last = false) => ({
    candidates: [
      {
        content: { parts, role: 'model' },
        ...(last ? { finishReason: FINISH[response.finishReason ?? 'stop'] ?? 'STOP' } : {}),
        index: 0,
      },
    ],
    usageMetadata: usageMetadata(response),
    modelVersion: 'gemini-2.5-flash',
  });
  const parts = partsOf(response);
  const pieces: string[] = [];
  for (const part of parts) {
    if (typeof part.text === 'string' && !part.thoughtSignature && part.text.length > size) {
      for (let i = 0; i < part.text.length; i += size) {
        pieces.push(data(chunk([{ ...part, text: part.text.slice(i, i + size) }])));
      }
    } else pieces.push(data(chunk([part])));
  }
  pieces.push(data(chunk([{ text: '' }], true)));
  return pieces;
}

/** An error body as the Generative Language API sends it. */
export function geminiError(code: number, status: string, message: string) {
  return { error: { code, message, status } };
}

/**
 * Checks a request against the API reference: roles are `user`/`model`, every part has one kind,
 * function responses name their function. A bad request gets Gemini's 400.
 */
function invalid(body: Record<string, unknown>): string | undefined {
  const contents = body.contents as { role?: string; parts?: Record<string, unknown>[] }[] | undefined;
  if (!Array.isArray(contents) || contents.length === 0)
    return '* GenerateContentRequest.contents: contents is not specified';
  for (const [i, content] of contents.entries()) {
    if (content.role !== 'user' && content.role !== 'model')
      return `Please use a valid role: user, model. (contents[${i}])`;
    for (const part of content.parts ?? []) {
      const response = part.functionResponse as { name?: string } | undefined;
      if (response && !response.name)
        return `* GenerateContentRequest.contents[${i}].parts: function_response.name: Name cannot be empty.`;
    }
  }
  return undefined;
}

/** Formats a neutral reply as Gemini would: JSON for `:generateContent`, SSE for `:streamGenerateContent?alt=sse`. */
export function geminiFormat(response: ModelResponse, request: RecordedRequest): WireReply {
  const problem = invalid(request.body);
  if (problem) return { kind: 'json', status: 400, body: geminiError(400, 'INVALID_ARGUMENT', problem) };
  if (request.path.includes(':streamGenerateContent')) {
    return { kind: 'stream', pieces: geminiStreamPieces(response) };
  }
  return { kind: 'json', body: geminiResponse(response) };
}

/** A fake Gemini (Generative Language API) server on 127.0.0.1. */
export function startGeminiServer(): Promise<WireServer> {
  return startWireServer(geminiFormat);
}
