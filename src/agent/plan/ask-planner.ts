import type { Message, ModelResponse } from '../../core/index.js';
import { costOf, type Model } from '../../llm/index.js';
import { callModel } from '../call-model.js';
import type { Emit } from '../loop-config.js';
import { addUsage, event, type RunState } from '../run-state.js';

/** What every planner call needs: the planning run's state, where events go, and its signal. */
export interface PlannerCall {
  state: RunState;
  emit: Emit;
  signal: AbortSignal;
}

/**
 * Calls a planner model once with the same events as the loop (`model_request`, `model_delta`,
 * `model_response`) and counts its usage (and cost, when the model's price is known) in the run.
 */
export async function askPlanner(
  model: Model,
  messages: Message[],
  step: number,
  call: PlannerCall,
): Promise<ModelResponse> {
  const { state, emit, signal } = call;
  emit(event(state, 'model_request', { step, model: model.id, messages }));
  const started = Date.now();
  const response = await callModel(
    model,
    { messages, signal },
    {
      streaming: true,
      onDelta: (text) => emit(event(state, 'model_delta', { step, text })),
      onReasoning: (text) => emit(event(state, 'reasoning_delta', { step, text })),
    },
  );
  addUsage(state, response.usage, response.cached === true);
  const cost = response.usage ? costOf(model.id, response.usage) : undefined;
  if (cost !== undefined) state.usage.costUsd = (state.usage.costUsd ?? 0) + cost;
  emit(
    event(state, 'model_response', {
      step,
      text: response.text,
      usage: response.usage,
      ms: Date.now() - started,
      modelId: response.modelId,
      cached: response.cached === true || undefined,
    }),
  );
  return response;
}
