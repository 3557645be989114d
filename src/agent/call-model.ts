import type { ModelRequest, ModelResponse } from '../core/index.js';
import type { Model } from '../llm/index.js';

/**
 * Calls the model once. When streaming, each text delta goes to `onDelta` as it arrives; either way
 * the whole reply comes back.
 */
export function callModel(
  model: Model,
  request: ModelRequest,
  streaming: boolean,
  onDelta: (text: string) => void,
): Promise<ModelResponse> {
  if (!streaming || !model.capabilities.streaming) return model.generate(request);
  return readStream(model, request, onDelta);
}

async function readStream(model: Model, request: ModelRequest, onDelta: (text: string) => void) {
  let response: ModelResponse | undefined;
  for await (const chunk of model.stream(request)) {
    if (chunk.type === 'text_delta' && chunk.text) onDelta(chunk.text);
    else if (chunk.type === 'response') response = chunk.response;
  }
  if (!response) throw new Error(`Model ${model.id} ended its stream without a response chunk.`);
  return response;
}
