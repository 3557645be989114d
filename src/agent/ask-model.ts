import type { ModelRequest, ModelResponse } from '../core/index.js';
import type { Model } from '../llm/index.js';
import { callModel } from './call-model.js';
import type { Emit, LoopConfig } from './loop-config.js';
import { addUsage, event, type RunState } from './run-state.js';

const ignore = () => {};

/** Calls the model and emits the request, the streamed text and the response. */
export function askModel(
  model: Model,
  request: ModelRequest,
  step: number,
  state: RunState,
  config: LoopConfig,
  emit: Emit,
): Promise<ModelResponse> {
  const { silent } = state;
  if (!silent) {
    emit(event(state, 'model_request', { step, model: model.id, messages: request.messages, tools: request.tools }));
  }
  const started = Date.now();
  const streaming = config.options.streaming ?? true;
  const onDelta = silent ? ignore : (text: string) => emit(event(state, 'model_delta', { step, text }));
  // A `then`, not an async function: one promise fewer per step. Promise.resolve also takes a model
  // whose generate() returns a plain value, as the await it replaces did.
  return Promise.resolve(callModel(model, request, streaming, onDelta)).then((response) => {
    const cached = response.cached === true;
    addUsage(state, response.usage, cached);
    if (silent) return response;
    if (cached) emit(event(state, 'cache_hit', { step, key: response.cacheKey ?? '' }));
    emit(
      event(state, 'model_response', {
        step,
        text: response.text,
        toolCalls: response.toolCalls,
        usage: response.usage,
        ms: Date.now() - started,
        modelId: response.modelId,
        cached: cached || undefined,
      }),
    );
    return response;
  });
}
