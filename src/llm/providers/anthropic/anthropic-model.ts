import { type ModelRequest, type ModelResponse, TOOL_NAME_RULES } from '../../../core/index.js';
import { endpoint, type HttpRequest } from '../../http/index.js';
import type { Model } from '../../model.js';
import type { HttpModelOptions } from '../http-model-options.js';
import { sseChatModel, sseModelIdentity } from '../sse-chat-model.js';
import { toAnthropicMessages, toAnthropicTools } from './convert-messages.js';
import { parseAnthropicResponse } from './parse-response.js';
import { parseAnthropicStream } from './parse-stream.js';

/** Options for {@link anthropic}. */
export interface AnthropicOptions extends HttpModelOptions {
  /** Sent as `x-api-key`. */
  apiKey: string;
  /** e.g. `claude-sonnet-4-5`. */
  model: string;
  /** Default `https://api.anthropic.com/v1` (requests go to `/messages`). */
  baseURL?: string;
  /** The `anthropic-version` header. Default `2023-06-01`. */
  version?: string;
  /** `max_tokens` when the request sets none (the API requires one). Default 4096. */
  maxTokens?: number;
  /**
   * Extended thinking: the model reasons first, with up to `budgetTokens` (at least 1024). Its thinking
   * blocks are kept on the reply and sent back, signed, on the next turn. `max_tokens` becomes the
   * answer's tokens plus the budget, and `temperature` is not sent (the API allows none with thinking).
   */
  thinking?: { budgetTokens: number };
  /**
   * Prompt caching breakpoints on the tool definitions, the system prompt and the last user or tool
   * turn, so an agent's repeated prefix is read from the cache (billed at a tenth) on later steps.
   * Default true; `false` sends no `cache_control`.
   */
  cacheControl?: boolean;
  /** Extra fields merged into every request body (e.g. `{ top_k: 40 }` or `{ metadata: {...} }`). */
  extraBody?: Record<string, unknown>;
}

/**
 * A Claude model over the Anthropic Messages API: the system prompt top-level, tool_use and
 * tool_result blocks, image and PDF blocks, extended thinking kept and sent back, prompt caching,
 * and streaming events with `input_json_delta` assembled into tool calls.
 *
 * @example
 * const model = anthropic({ apiKey: process.env.ANTHROPIC_API_KEY!, model: 'claude-sonnet-4-5' });
 * const thinker = anthropic({ apiKey: process.env.ANTHROPIC_API_KEY!, model: 'claude-sonnet-4-5', thinking: { budgetTokens: 4000 } });
 */
export function anthropic(options: AnthropicOptions): Model {
  const who = sseModelIdentity('anthropic', options);
  const url = endpoint(options.baseURL ?? 'https://api.anthropic.com/v1', '/messages', who.provider);
  const headers: Record<string, string> = {
    ...options.headers,
    'x-api-key': options.apiKey,
    'anthropic-version': options.version ?? '2023-06-01',
  };
  const cache = options.cacheControl ?? true;
  const { thinking } = options;

  function httpRequest(request: ModelRequest, stream: boolean): Pick<HttpRequest, 'url' | 'headers' | 'body'> {
    const { system, messages } = toAnthropicMessages(request.messages, { cache });
    const answerTokens = request.maxTokens ?? options.maxTokens ?? 4096;
    const body: Record<string, unknown> = {
      ...options.extraBody,
      model: options.model,
      max_tokens: thinking ? answerTokens + thinking.budgetTokens : answerTokens,
      messages,
    };
    if (system) body.system = system;
    const format = forcedTool(request);
    if (request.tools?.length) body.tools = toAnthropicTools(request.tools, { cache });
    else if (format) {
      // Structured output: one tool whose input is the answer, and the model must call it.
      body.tools = [{ name: format.name, description: 'Give the final answer.', input_schema: format.schema }];
      body.tool_choice = { type: 'tool', name: format.name };
    }
    if (thinking) body.thinking = { type: 'enabled', budget_tokens: thinking.budgetTokens };
    else {
      if (request.temperature !== undefined) body.temperature = request.temperature;
      if (request.topP !== undefined) body.top_p = request.topP;
    }
    if (request.stop?.length) body.stop_sequences = request.stop;
    if (stream) body.stream = true;
    return { url, headers: { ...headers, accept: stream ? 'text/event-stream' : 'application/json' }, body };
  }

  /** The forced answer tool, when asked for structured output (not with thinking: it forbids forcing a tool). */
  function forcedTool(request: ModelRequest) {
    return !thinking && !request.tools?.length ? request.responseFormat : undefined;
  }

  return sseChatModel({
    ...who,
    request: httpRequest,
    parse: (body, call) => asAnswer(parseAnthropicResponse(body, call), forcedTool(call.request)?.name),
    async *parseStream(events, call) {
      const name = forcedTool(call.request)?.name;
      for await (const chunk of parseAnthropicStream(events, call)) {
        if (chunk.type === 'response') yield { type: 'response', response: asAnswer(chunk.response, name) };
        else if (!(name && chunk.type === 'tool_call_delta')) yield chunk;
      }
    },
    toolNames: TOOL_NAME_RULES.anthropic,
  });
}

/** A call of the forced answer tool is the answer itself: its arguments become the reply text. */
function asAnswer(response: ModelResponse, toolName: string | undefined): ModelResponse {
  const call = toolName ? response.toolCalls?.find((c) => c.name === toolName) : undefined;
  if (!call) return response;
  const { toolCalls: _calls, ...rest } = response;
  return { ...rest, text: call.arguments, finishReason: 'stop' };
}
