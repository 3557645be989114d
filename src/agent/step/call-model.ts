import type { ModelRequest, ModelResponse } from '../../core/index.js';
import type { Model } from '../../llm/index.js';

/** How to call the model: streamed or not, and who hears the streamed pieces. */
export interface CallModelOptions {
  streaming: boolean;
  /** Each streamed piece of answer text. */
  onDelta: (text: string) => void;
  /** Each streamed piece of reasoning (thinking), kept apart from the answer. */
  onReasoning?: (text: string) => void;
}

/**
 * Calls the model once. When streaming, each text delta goes to `onDelta` (and each reasoning delta
 * to `onReasoning`) as it arrives; either way the whole reply comes back. The stream is read up to its
 * `response` chunk, the last one a model sends: a stream that stays open after it (a proxy that keeps
 * the connection) does not hold the run, and the stream is closed (`return()`, its `finally` blocks run).
 */
export function callModel(model: Model, request: ModelRequest, options: CallModelOptions): Promise<ModelResponse> {
  if (!options.streaming || !model.capabilities.streaming) return model.generate(request);
  return readStream(model, request, options);
}

async function readStream(model: Model, request: ModelRequest, options: CallModelOptions) {
  let response: ModelResponse | undefined;
  for await (const chunk of model.stream(request)) {
    if (chunk.type === 'text_delta' && chunk.text) options.onDelta(chunk.text);
    else if (chunk.type === 'reasoning_delta' && chunk.text) options.onReasoning?.(chunk.text);
    else if (chunk.type === 'response') {
      // Asking for more after the last chunk is one more turn of the event loop per reply (a fifth of a
      // streamed run's cost on the scripted model) for nothing.
      response = chunk.response;
      break;
    }
  }
  if (!response) throw new Error(`Model ${model.id} ended its stream without a response chunk.`);
  return response;
}
