import {
  contentText,
  estimateMediaTokens,
  type Message,
  type ModelRequest,
  type ModelResponse,
  mediaParts,
  type ToolCall,
  type Usage,
} from '../core/index.js';
import { countTokens } from './count-tokens.js';

/** Chat formats add a few tokens per message for role and separators (OpenAI documents ~3-4). */
const PER_MESSAGE = 4;

function callTokens(calls: readonly ToolCall[] | undefined): number {
  let total = 0;
  for (const call of calls ?? []) total += countTokens(call.name) + countTokens(call.arguments) + PER_MESSAGE;
  return total;
}

function contentTokens(content: Message['content']): number {
  if (typeof content === 'string') return countTokens(content);
  let total = countTokens(contentText(content, { media: 'omit' }));
  for (const part of mediaParts(content)) total += estimateMediaTokens(part);
  return total;
}

/** Tokens in the prompt: messages, their tool calls, and the tool schemas sent along. */
export function estimatePromptTokens(request: Pick<ModelRequest, 'messages' | 'tools'>): number {
  let total = 3;
  for (const message of request.messages) {
    total += PER_MESSAGE + contentTokens(message.content);
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
    // The reported usage as it is (cache and reasoning detail included), when it is a whole one.
    if (reported === response.usage && response.usage) return response;
    const usage: Usage = { ...reported, promptTokens: prompt, completionTokens: completion };
    return { ...response, usage };
  }
  const usage: Usage = {
    promptTokens: prompt ?? estimatePromptTokens(request),
    completionTokens: completion ?? estimateCompletionTokens(response),
    estimated: true,
  };
  return { ...response, usage };
}
