import type { ModelRequest } from '../../../core/index.js';
import { endpoint, type HttpRequest } from '../../http/index.js';
import type { Model } from '../../model.js';
import type { HttpModelOptions } from '../http-model-options.js';
import { sseChatModel, sseModelIdentity } from '../sse-chat-model.js';
import { toResponsesInput, toResponsesTools } from './convert-input.js';
import { parseResponsesResponse } from './parse-response.js';
import { parseResponsesStream } from './parse-stream.js';

/** Options for {@link openaiResponses}. */
export interface OpenAIResponsesOptions extends HttpModelOptions {
  /** Sent as `Authorization: Bearer …`. */
  apiKey?: string;
  /** e.g. `gpt-5-mini`, `o4-mini`. */
  model: string;
  /** Default `https://api.openai.com/v1` (requests go to `/responses`). */
  baseURL?: string;
  /** `reasoning.effort` for reasoning models. */
  reasoningEffort?: 'minimal' | 'low' | 'medium' | 'high';
  /** `reasoning.summary`: ask for a readable summary of the reasoning, kept as reasoning text. */
  reasoningSummary?: 'auto' | 'concise' | 'detailed';
  /**
   * Whether OpenAI stores the response. Default false: each request carries the whole conversation,
   * and reasoning items travel back as `encrypted_content` (asked for with `include`).
   */
  store?: boolean;
  /**
   * Server-side compaction (`context_management`): once the input passes `compactThreshold` tokens, the
   * server compacts the conversation into an opaque, encrypted `compaction` item, which is kept and sent
   * back as it came on every later turn (and reported as a `context_compact` of kind `provider`).
   */
  contextManagement?: { compactThreshold?: number };
  /**
   * Hosted tool search (gpt-5.4 and later): every function tool except those named in `keep` is sent with
   * `defer_loading: true`, plus the `tool_search` tool; the server loads the ones the model searches for.
   * Its `tool_search_call` and `tool_search_output` items go back as they came. The agent then routes no tools.
   */
  toolSearch?: boolean | { keep?: string[] };
  /** Extra fields merged into every request body (e.g. `{ top_p: 0.9 }` or `{ metadata: {...} }`); the request's own fields win. */
  extraBody?: Record<string, unknown>;
}

/**
 * A model over OpenAI's Responses API: function tools, streaming events, reasoning items carried
 * across turns (encrypted when `store` is false), images and files, cached and reasoning token
 * counts, and `text.format` for structured output. Chat Completions (`openaiCompatible`) stays the
 * default for compatible servers.
 *
 * @example
 * const model = openaiResponses({ apiKey: process.env.OPENAI_API_KEY!, model: 'gpt-5-mini', reasoningEffort: 'low' });
 */
export function openaiResponses(options: OpenAIResponsesOptions): Model {
  const who = sseModelIdentity('openai-responses', options);
  const url = endpoint(options.baseURL ?? 'https://api.openai.com/v1', '/responses', who.provider);
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const store = options.store ?? false;
  const { contextManagement } = options;
  const toolSearch = options.toolSearch === true ? {} : options.toolSearch || undefined;

  function httpRequest(request: ModelRequest, stream: boolean): Pick<HttpRequest, 'url' | 'headers' | 'body'> {
    const body: Record<string, unknown> = {
      ...options.extraBody,
      model: options.model,
      input: toResponsesInput(request.messages),
      store,
    };
    if (!store) body.include = ['reasoning.encrypted_content'];
    if (request.tools?.length) {
      const keep = new Set(toolSearch?.keep);
      const tools: Record<string, unknown>[] = toResponsesTools(request.tools);
      if (toolSearch) {
        for (const tool of tools) if (!keep.has(String(tool.name))) tool.defer_loading = true;
        tools.push({ type: 'tool_search' });
      }
      body.tools = tools;
    }
    if (contextManagement) {
      const entry: Record<string, unknown> = { type: 'compaction' };
      if (contextManagement.compactThreshold !== undefined)
        entry.compact_threshold = contextManagement.compactThreshold;
      body.context_management = [entry];
    }
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.topP !== undefined) body.top_p = request.topP;
    if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens;
    if (options.reasoningEffort || options.reasoningSummary) {
      const reasoning: Record<string, string> = {};
      if (options.reasoningEffort) reasoning.effort = options.reasoningEffort;
      if (options.reasoningSummary) reasoning.summary = options.reasoningSummary;
      body.reasoning = reasoning;
    }
    if (request.responseFormat && !request.tools?.length) {
      const { name, schema, strict } = request.responseFormat;
      body.text = { format: { type: 'json_schema', name, schema, strict: strict ?? false } };
    }
    if (stream) body.stream = true;
    return { url, headers: stream ? { ...headers, accept: 'text/event-stream' } : headers, body };
  }

  return sseChatModel({
    ...who,
    request: httpRequest,
    parse: parseResponsesResponse,
    parseStream: parseResponsesStream,
    capabilities: toolSearch ? { toolSearch: true } : undefined,
  });
}
