import {
  contentText,
  estimateMediaTokens,
  type Message,
  type ModelRequest,
  type ModelResponse,
  mediaParts,
  type ToolCall,
  type ToolSpec,
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

const specChars = new WeakMap<object, number>();

/**
 * `JSON.stringify(tools).length`, without stringifying on every run: a registry's specs are frozen and
 * shared by every run (and every agent) holding the tool, so each is measured once and the array adds
 * its brackets and commas. Each run has a new specs array, so a cache keyed by the array measured every
 * tool again each run, and a new WeakMap key per run cost about as much (~3 µs a run; see docs/loop.md).
 * Specs that are not frozen may change, so they are measured each time.
 */
function toolsChars(tools: readonly ToolSpec[]): number {
  // Each step of a run sends the same frozen list (the registry's): measured once, not at every step.
  if (tools === lastTools) return lastChars;
  let chars = tools.length + 1;
  for (const tool of tools) {
    if (!Object.isFrozen(tool)) return JSON.stringify(tools).length;
    let own = specChars.get(tool);
    if (own === undefined) {
      own = JSON.stringify(tool).length;
      specChars.set(tool, own);
    }
    chars += own;
  }
  if (Object.isFrozen(tools)) {
    lastTools = tools;
    lastChars = chars;
  }
  return chars;
}

let lastTools: readonly ToolSpec[] | undefined;
let lastChars = 0;

function charsOf(content: Message['content']): number {
  if (typeof content === 'string') return content.length;
  let chars = 0;
  for (const part of content)
    chars += part.type === 'text' ? part.text.length : estimateMediaTokens(part) * CHARS_PER_TOKEN;
  return chars;
}

const CHARS_PER_TOKEN = 4;

/** What one message adds to `roughUsage`'s prompt count, in characters (a prompt's count is the sum over its messages). */
export function messageChars(message: Message): number {
  let chars = charsOf(message.content) + PER_MESSAGE * CHARS_PER_TOKEN;
  if (message.role === 'assistant')
    for (const call of message.toolCalls ?? []) chars += call.name.length + call.arguments.length;
  return chars;
}

/**
 * A quick usage estimate for a reply whose model reported none (scripted, demo, some local servers),
 * flagged `estimated: true`: about four characters a token, from lengths alone. The loop makes one per
 * such reply, so it never runs a tokenizer (that cost ~20 µs a step; see docs/loop.md). `promptChars`,
 * when the caller already has it, is the sum of `messageChars` over the request's messages: the loop
 * keeps it as its prompt grows, so a step counts only its new messages, not the whole prompt again.
 */
export function roughUsage(
  request: Pick<ModelRequest, 'messages' | 'tools'>,
  response: Pick<ModelResponse, 'text' | 'toolCalls'>,
  promptChars?: number,
): Usage {
  let prompt = promptChars ?? 0;
  if (promptChars === undefined) for (const message of request.messages) prompt += messageChars(message);
  if (request.tools?.length) prompt += toolsChars(request.tools);
  let completion = response.text.length;
  for (const call of response.toolCalls ?? []) completion += call.name.length + call.arguments.length;
  return {
    promptTokens: Math.ceil(prompt / CHARS_PER_TOKEN),
    completionTokens: Math.max(1, Math.ceil(completion / CHARS_PER_TOKEN)),
    estimated: true,
  };
}
