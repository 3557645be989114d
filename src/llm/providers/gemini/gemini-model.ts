import { type ModelRequest, TOOL_NAME_RULES } from '../../../core/index.js';
import { endpoint, type HttpRequest } from '../../http/index.js';
import type { Model } from '../../model.js';
import type { HttpModelOptions } from '../http-model-options.js';
import { sseChatModel, sseModelIdentity } from '../sse-chat-model.js';
import { toGeminiContents, toGeminiTools } from './convert-messages.js';
import { parseGeminiResponse, parseGeminiStream } from './parse-stream.js';
import { toGeminiSchema } from './to-gemini-schema.js';

/** Options for {@link gemini}. */
export interface GeminiOptions extends HttpModelOptions {
  /** Sent as `x-goog-api-key`. */
  apiKey: string;
  /** e.g. `gemini-2.5-flash`. */
  model: string;
  /** Default `https://generativelanguage.googleapis.com/v1beta`. */
  baseURL?: string;
  /**
   * Thinking: a token budget (`0` turns it off on models that allow it, `-1` lets the model decide)
   * and whether to return thought summaries, which are kept as reasoning. Thought signatures are
   * always kept and sent back.
   */
  thinking?: { budgetTokens?: number; includeThoughts?: boolean };
  /**
   * Extra `generationConfig` fields sent with every request (e.g. `{ topK: 40, seed: 7 }`, the CLI's
   * `-O`); the request's own temperature, token limit, stops and schema win.
   */
  generationConfig?: Record<string, unknown>;
}

/**
 * A Gemini model over Google's native `generateContent` / `streamGenerateContent` API: function
 * declarations (JSON Schema converted to Gemini's subset), function calls and responses, the system
 * instruction, images and files as inline data, thinking with thought signatures sent back, usage
 * with thinking and cached tokens, and `responseSchema` for structured output.
 *
 * @example
 * const model = gemini({ apiKey: process.env.GEMINI_API_KEY!, model: 'gemini-2.5-flash' });
 */
export function gemini(options: GeminiOptions): Model {
  const who = sseModelIdentity('gemini', options);
  const { provider } = who;
  const base = endpoint(
    options.baseURL ?? 'https://generativelanguage.googleapis.com/v1beta',
    `/models/${encodeURIComponent(options.model)}`,
    provider,
  );
  const headers: Record<string, string> = { ...options.headers, 'x-goog-api-key': options.apiKey };

  function httpRequest(request: ModelRequest, stream: boolean): Pick<HttpRequest, 'url' | 'headers' | 'body'> {
    const { systemInstruction, contents } = toGeminiContents(request.messages);
    const body: Record<string, unknown> = { contents };
    if (systemInstruction) body.systemInstruction = systemInstruction;
    if (request.tools?.length) body.tools = toGeminiTools(request.tools);
    const config: Record<string, unknown> = { ...options.generationConfig };
    if (request.temperature !== undefined) config.temperature = request.temperature;
    if (request.topP !== undefined) config.topP = request.topP;
    if (request.maxTokens !== undefined) config.maxOutputTokens = request.maxTokens;
    if (request.stop?.length) config.stopSequences = request.stop.slice(0, 5);
    if (request.responseFormat && !request.tools?.length) {
      config.responseMimeType = 'application/json';
      config.responseSchema = toGeminiSchema(request.responseFormat.schema);
    }
    if (options.thinking) {
      const thinking: Record<string, unknown> = { includeThoughts: options.thinking.includeThoughts ?? true };
      if (options.thinking.budgetTokens !== undefined) thinking.thinkingBudget = options.thinking.budgetTokens;
      config.thinkingConfig = thinking;
    }
    if (Object.keys(config).length > 0) body.generationConfig = config;
    return {
      url: stream ? `${base}:streamGenerateContent?alt=sse` : `${base}:generateContent`,
      headers: { ...headers, accept: stream ? 'text/event-stream' : 'application/json' },
      body,
    };
  }

  return sseChatModel({
    ...who,
    request: httpRequest,
    parse: parseGeminiResponse,
    parseStream: parseGeminiStream,
    toolNames: TOOL_NAME_RULES.gemini,
  });
}
