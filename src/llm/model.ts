import type { ModelChunk, ModelRequest, ModelResponse } from '../core/index.js';

/** What a model can do. The agent's `auto` protocol picks native tool calling when `nativeTools` is true. */
export interface ModelCapabilities {
  nativeTools: boolean;
  streaming: boolean;
  /**
   * Whether the model reads image and file parts. When false, the agent replaces them with a note
   * saying they were left out and emits a warning. Unset means the provider sends them on.
   */
  images?: boolean;
  /**
   * The provider searches the tools itself (deferred loading with its native tool search): the agent
   * sends every tool and routes none. Set by `openaiResponses({ toolSearch })` and `anthropic({ toolSearch })`.
   */
  toolSearch?: boolean;
}

/**
 * A chat model. Providers (`openaiCompatible`, `anthropic`, `ollama`, ...) and wrappers
 * (`fallbackModels`, `cachedModel`, `scriptedModel`) all implement this one interface.
 */
export interface Model {
  /** A stable identifier such as `openai:gpt-4o-mini`. */
  readonly id: string;
  readonly capabilities: ModelCapabilities;
  /** Context window in tokens, when known; the context manager's budget defaults from it. */
  readonly contextWindow?: number;
  generate(request: ModelRequest): Promise<ModelResponse>;
  /**
   * Streams deltas; the last chunk is `{ type: 'response' }` with the whole reply. The agent loop reads up
   * to that chunk and then closes the stream (`return()`): work that must run after it goes in a `finally`.
   */
  stream(request: ModelRequest): AsyncIterable<ModelChunk>;
}
