import { type ModelRequest, type ModelResponse, reasoningText } from '../core/index.js';
import type { Model } from '../llm/index.js';
import { callModel } from './call-model.js';
import type { Emit, LoopConfig } from './loop-config.js';
import { addUsage, event, type RunState } from './run-state.js';
import { withoutMedia } from './unsupported-media.js';

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
  if (model.capabilities.images === false) request = stripMedia(model, request, step, state, emit);
  if (!silent) {
    emit(event(state, 'model_request', { step, model: model.id, messages: request.messages, tools: request.tools }));
  }
  const started = Date.now();
  const streaming = config.options.streaming ?? true;
  const onDelta = silent ? ignore : (text: string) => emit(event(state, 'model_delta', { step, text }));
  // A `then`, not an async function: one promise fewer per step. Promise.resolve also takes a model
  // whose generate() returns a plain value, as the await it replaces did.
  const onReasoning = silent ? ignore : (text: string) => emit(event(state, 'reasoning_delta', { step, text }));
  return Promise.resolve(callModel(model, request, { streaming, onDelta, onReasoning })).then((response) => {
    const cached = response.cached === true;
    addUsage(state, response.usage, cached);
    if (silent) return response;
    if (cached) emit(event(state, 'cache_hit', { step, key: response.cacheKey ?? '' }));
    emit(
      event(state, 'model_response', {
        step,
        text: response.text,
        toolCalls: response.toolCalls,
        reasoning: response.reasoning ? reasoningText(response.reasoning) || undefined : undefined,
        usage: response.usage,
        ms: Date.now() - started,
        modelId: response.modelId,
        cached: cached || undefined,
      }),
    );
    return response;
  });
}

/** Replaces images and files a text-only model cannot read by notes, and says so once per run. */
function stripMedia(model: Model, request: ModelRequest, step: number, state: RunState, emit: Emit): ModelRequest {
  const { messages, dropped } = withoutMedia(request.messages, model.id);
  if (dropped === 0) return request;
  if (!state.mediaWarned) {
    state.mediaWarned = true;
    const message = `${model.id} cannot read images or files: ${dropped} attachment(s) were replaced by a note saying so. Use a vision model to show them.`;
    emit(event(state, 'warning', { step, code: 'media_unsupported', message }));
  }
  return { ...request, messages };
}
