import type { Message, ModelResponse } from '../../core/index.js';
import type { Model } from '../../llm/index.js';
import type { RunScope } from '../run/index.js';
import { askModel } from '../step/index.js';

/** What every planner call needs: the planning run's state, where events go, and its signal. */
export type PlannerCall = RunScope;

/**
 * Calls a planner model once, reported as the loop reports its calls (`model_request`, `model_delta`,
 * `model_response`), streamed, with its usage and cost (when the model's price is known) counted in the run.
 */
export function askPlanner(model: Model, messages: Message[], step: number, call: PlannerCall): Promise<ModelResponse> {
  return askModel(call, { model, request: { messages, signal: call.signal }, step, streaming: true, cost: true });
}
