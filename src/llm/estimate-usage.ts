import type { ModelRequest, ModelResponse, ToolCall, Usage } from '../core/index.js';
import { countTokens } from './count-tokens.js';

/** Chat formats add a few tokens per message for role and separators (OpenAI documents ~3-4). */
const PER_MESSAGE = 4;

function callTokens(calls: readonly ToolCall[] | undefined): number {
  let total = 0;
  for (const call of calls ?? []) total += countTokens(call.name) + countTokens(call.arguments) + PER_MESSAGE;
  return total;
}

/** Tokens in the prompt: messages, their tool calls, and the tool schemas sent along. */
export function estimatePromptTokens(request: Pick<ModelRequest, 'messages' | 'tools'>): number {
  let total = 3;
  for (const message of request.messages) {
    total += PER_MESSAGE + countTokens(message.content);
    if (message.role === 'assistant') total += callTokens(message.toolCalls);
  }
  if (request.tools?.length) total += countTokens(JSON.stringify(request.tools));
  return total;
}

/** Tokens in a reply: its text and its tool calls. */
export function estimateCompletionTokens(response: Pick<ModelResponse, 'text' | 'toolCalls'>): number {
  return countTokens(response.text) + callTokens(response.toolCalls);
}

/**
 * Fills in whatever usage the provider left out, estimated with `countTokens`, and marks
 * the result `estimated: true` when any part was estimated.
 */
export function withUsage(
  response: ModelResponse,
  request: Pick<ModelRequest, 'messages' | 'tools'>,
  reported: Partial<Usage> | undefined = response.usage,
): ModelResponse {
  const prompt = reported?.promptTokens;
  const completion = reported?.completionTokens;
  if (prompt !== undefined && completion !== undefined) {
    const usage: Usage = { promptTokens: prompt, completionTokens: completion };
    if (reported?.estimated) usage.estimated = true;
    return { ...response, usage };
  }
  const usage: Usage = {
    promptTokens: prompt ?? estimatePromptTokens(request),
    completionTokens: completion ?? estimateCompletionTokens(response),
    estimated: true,
  };
  return { ...response, usage };
}
