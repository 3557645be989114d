import { type ModelRequest, type ModelResponse, TOOL_NAME_RULES } from '../../../core/index.js';
import { endpoint, type HttpRequest } from '../../http/index.js';
import type { Model } from '../../model.js';
import type { HttpModelOptions } from '../http-model-options.js';
import { sseChatModel, sseModelIdentity } from '../sse-chat-model.js';
import { type AnthropicToolSearch, toAnthropicMessages, toAnthropicTools } from './convert-messages.js';
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
  /**
   * Context editing on Anthropic's side (`clear_tool_uses_20250919`, beta `context-management-2025-06-27`):
   * past the trigger (default 100,000 input tokens) the API clears the oldest tool results, keeping the
   * last `keep` tool uses (default 3). `true` takes the API's defaults. Each clearing is a
   * `context_compact` of kind `provider`. Fields as the API names them, in camelCase.
   */
  contextEditing?:
    | true
    | {
        trigger?: { type: 'input_tokens' | 'tool_uses'; value: number };
        keep?: { type: 'tool_uses'; value: number };
        clearAtLeast?: { type: 'input_tokens'; value: number };
        excludeTools?: string[];
        clearToolInputs?: boolean | string[];
      };
  /**
   * Anthropic's tool search: the tool search tool (`bm25` or `regex`) is sent first and every tool except
   * those named in `keep` with `defer_loading: true`; the API loads the ones the model searches for. Its
   * `server_tool_use` and `tool_search_tool_result` blocks go back as they came. The agent then routes no tools.
   */
  toolSearch?: 'bm25' | 'regex' | { kind?: 'bm25' | 'regex'; keep?: string[] };
  /** Extra fields merged into every request body (e.g. `{ top_k: 40 }` or `{ metadata: {...} }`). */
  extraBody?: Record<string, unknown>;
}

/** The beta header context editing needs. */
const CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27';

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
  const search = toolSearchOf(options.toolSearch);
  const contextManagement = contextEditsOf(options.contextEditing);
  if (contextManagement) {
    // Joined with any beta the caller sends already.
    const beta = headers['anthropic-beta'];
    headers['anthropic-beta'] = beta ? `${beta},${CONTEXT_MANAGEMENT_BETA}` : CONTEXT_MANAGEMENT_BETA;
  }

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
    if (request.tools?.length) body.tools = toAnthropicTools(request.tools, { cache, search });
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
    if (contextManagement) body.context_management = contextManagement;
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
    capabilities: search ? { toolSearch: true } : undefined,
  });
}

function toolSearchOf(option: AnthropicOptions['toolSearch']): AnthropicToolSearch | undefined {
  if (option === undefined) return undefined;
  if (typeof option === 'string') return { kind: option };
  return { kind: option.kind ?? 'bm25', keep: option.keep };
}

/** The `context_management` body field: one `clear_tool_uses_20250919` edit, its fields in the API's snake_case. */
function contextEditsOf(option: AnthropicOptions['contextEditing']): Record<string, unknown> | undefined {
  if (option === undefined) return undefined;
  const edit: Record<string, unknown> = { type: 'clear_tool_uses_20250919' };
  if (option !== true) {
    if (option.trigger) edit.trigger = option.trigger;
    if (option.keep) edit.keep = option.keep;
    if (option.clearAtLeast) edit.clear_at_least = option.clearAtLeast;
    if (option.excludeTools) edit.exclude_tools = option.excludeTools;
    if (option.clearToolInputs !== undefined) edit.clear_tool_inputs = option.clearToolInputs;
  }
  return { edits: [edit] };
}

/** A call of the forced answer tool is the answer itself: its arguments become the reply text. */
function asAnswer(response: ModelResponse, toolName: string | undefined): ModelResponse {
  const call = toolName ? response.toolCalls?.find((c) => c.name === toolName) : undefined;
  if (!call) return response;
  const { toolCalls: _calls, ...rest } = response;
  return { ...rest, text: call.arguments, finishReason: 'stop' };
}
