import { type ModelRequest, type ModelResponse, plural, reasoningText, type StepJournal } from '../../core/index.js';
import { costOf, type Model, roughUsage } from '../../llm/index.js';
import { addUsage, event, type RunScope } from '../run/index.js';
import { callModel } from './call-model.js';
import { withoutMedia } from './unsupported-media.js';

/** One model call of a run: the model, the request, and the step it belongs to. */
export interface ModelCall {
  model: Model;
  request: ModelRequest;
  step: number;
  /** Use the model's stream (and emit `model_delta`) when it has one. */
  streaming: boolean;
  /** Add the call's cost to the run's usage now (a planning run prices each call; the agent prices the whole run at its end). */
  cost?: boolean;
}

const ignore = () => {};
const SILENT_STREAMED = Object.freeze({ streaming: true, onDelta: ignore, onReasoning: ignore });
const SILENT_WHOLE = Object.freeze({ streaming: false, onDelta: ignore, onReasoning: ignore });

/** A model call under way (`startModelCall`): the request as sent, when it started, and the reply to come. */
export interface ModelAsked {
  call: ModelCall;
  request: ModelRequest;
  started: number;
  reply: ModelResponse | Promise<ModelResponse>;
  /** The request's messages as `roughUsage` counts them, when the caller kept the count (the loop's prompt). */
  promptChars: number | undefined;
}

/**
 * Calls the model once and reports it: `model_request`, the streamed `model_delta`/`reasoning_delta`
 * pieces, `cache_hit`, then `model_response`; the usage goes into the run's totals.
 */
export function askModel(scope: RunScope, call: ModelCall): Promise<ModelResponse> {
  const asked = startModelCall(scope, call);
  return Promise.resolve(asked.reply).then((response) => modelAnswered(scope, asked, response));
}

/**
 * `askModel` in two halves, for the loop: this one emits `model_request` and calls the model; the loop
 * awaits the reply and hands it to `modelAnswered` (one promise and one `then` fewer per step; docs/loop.md).
 */
export function startModelCall(scope: RunScope, call: ModelCall, promptChars?: number): ModelAsked {
  const { state, emit } = scope;
  const { model, step } = call;
  const { silent } = state;
  const request = model.capabilities.images === false ? stripMedia(scope, call) : call.request;
  if (!silent) {
    emit(event(state, 'model_request', { step, model: model.id, messages: request.messages, tools: request.tools }));
  }
  // Only the `model_response` event reads the clock (a silent run reads none).
  const started = silent ? 0 : Date.now();
  // A silent run's call options are one of two shared objects: no closures or options per step.
  const streamed = silent
    ? call.streaming
      ? SILENT_STREAMED
      : SILENT_WHOLE
    : {
        streaming: call.streaming,
        onDelta: (text: string) => emit(event(state, 'model_delta', { step, text })),
        onReasoning: (text: string) => emit(event(state, 'reasoning_delta', { step, text })),
      };
  // Under a journal the call is a step, streamed as it runs; a replay after a restart reads the whole
  // reply from the journal, and streams nothing.
  const reply = scope.journal
    ? journaledCall(scope.journal, call, request, () => callModel(model, request, streamed))
    : callModel(model, request, streamed);
  return { call, request, started, reply, promptChars };
}

/** The model's reply to a call `startModelCall` began: its usage counted (estimated when not reported), `model_response` emitted. */
export function modelAnswered(scope: RunScope, asked: ModelAsked, reply: ModelResponse): ModelResponse {
  const { state, emit } = scope;
  const { call, request, started } = asked;
  const { model, step } = call;
  const cached = reply.cached === true;
  // The kept count is of the request as prepared: a request with its media stripped is counted again.
  const chars = request === call.request ? asked.promptChars : undefined;
  const response = ownReply(reply, cached ? reply.usage : (reply.usage ?? roughUsage(request, reply, chars)));
  addUsage(state, response.usage, cached);
  const cost = call.cost && response.usage ? costOf(model.id, response.usage) : undefined;
  if (cost !== undefined) state.usage.costUsd = (state.usage.costUsd ?? 0) + cost;
  if (response.compactions?.length) providerCompacted(scope, step, response);
  if (state.silent) return response;
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
}

/**
 * The loop's own record of a reply: one object literal of one shape, whatever the model returned.
 * The model's object is never written to: it may be frozen, shared (a script's or a cache's reply,
 * which would then carry this call's usage into the next), or a spread copy, which on Node 20 turns
 * slow once it gains a property and slows every later read of it (a model returning `{ ...reply }`
 * made the whole run 2.5× slower; docs/loop.md). A model that reports no usage (scripted, demo, some
 * local servers) gets an estimate flagged as one, not a false zero that clients read as "no usage".
 */
function ownReply(reply: ModelResponse, usage: ModelResponse['usage']): ModelResponse {
  return {
    text: reply.text,
    toolCalls: reply.toolCalls,
    reasoning: reply.reasoning,
    providerItems: reply.providerItems,
    compactions: reply.compactions,
    usage,
    finishReason: reply.finishReason,
    modelId: reply.modelId,
    cached: reply.cached,
    cacheKey: reply.cacheKey,
  };
}

/**
 * The provider compacted on its side (OpenAI Responses compaction, Anthropic context editing): one
 * `context_compact` of kind `provider` each. The prompt after it is what the provider billed; before
 * it, that plus what it says it cleared (the same when it does not say).
 */
function providerCompacted({ state, emit }: RunScope, step: number, response: ModelResponse): void {
  const after = response.usage?.promptTokens ?? 0;
  for (const c of response.compactions ?? []) {
    state.stats.compactions += 1;
    const fields = {
      step,
      kind: 'provider' as const,
      tokensBefore: after + (c.clearedTokens ?? 0),
      tokensAfter: after,
    };
    emit(event(state, 'context_compact', { ...fields, callIds: [] }));
  }
}

/** Replaces images and files a text-only model cannot read by notes, and says so once per run. */
function stripMedia({ state, emit }: RunScope, { model, request, step }: ModelCall): ModelRequest {
  const { messages, dropped } = withoutMedia(request.messages, model.id);
  if (dropped === 0) return request;
  if (!state.mediaWarned) {
    state.mediaWarned = true;
    const message = `${model.id} cannot read images or files: ${dropped === 1 ? '1 attachment was' : `${plural(dropped, 'attachment')} were`} replaced by a note saying so. Use a vision model to show them.`;
    emit(event(state, 'warning', { step, code: 'media_unsupported', message }));
  }
  return { ...request, messages };
}

/** The model call as a step of the journal, keyed by its step, with the request (without its signal) as the step's input. */
function journaledCall(
  journal: StepJournal,
  call: ModelCall,
  request: ModelRequest,
  ask: () => Promise<ModelResponse>,
): Promise<ModelResponse> {
  const { signal: _signal, ...input } = request;
  return journal.step({ kind: 'model', name: call.model.id, input, key: String(call.step) }, ask);
}
