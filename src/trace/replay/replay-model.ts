import {
  type AgentEvent,
  type EventOf,
  type ModelChunk,
  ModelError,
  type ModelRequest,
  type ModelResponse,
} from '../../core/index.js';
import type { Model } from '../../llm/index.js';
import { compareRequest, type Divergence } from './compare-request.js';

export interface ReplayModelOptions {
  /** Throw a ModelError at the first request that differs from the recording. Default false: keep serving. */
  strict?: boolean;
  /** The model id to report. Default: the recorded run's model. */
  id?: string;
}

/** A model that serves a trace's recorded replies, and tells where the requests stopped matching. */
export interface ReplayModel extends Model {
  /** The first request that differed from the recorded one (or a call past the recording), if any. */
  readonly divergence: Divergence | undefined;
  /** Calls served so far. */
  readonly served: number;
  /** Recorded replies not yet served. */
  readonly remaining: number;
}

interface Recorded {
  request?: EventOf<'model_request'>;
  response: EventOf<'model_response'>;
}

/**
 * Serves the recorded `model_response`s of a trace in order, comparing each incoming request with the
 * recorded `model_request`. The first difference is kept in `divergence` (and thrown when `strict`).
 * Only the root run's calls are served; child agents' calls are theirs.
 *
 * @example
 * const model = replayModel(readTrace('run.jsonl'));
 * await new Agent({ model, tools }).run(input);
 * if (model.divergence) console.log(model.divergence.message);
 */
export function replayModel(trace: readonly AgentEvent[], options: ReplayModelOptions = {}): ReplayModel {
  const start = trace.find((e): e is EventOf<'run_start'> => e.type === 'run_start' && !e.parentRunId);
  const rootId = start?.runId ?? trace[0]?.runId;
  const recorded = pairs(trace.filter((e) => e.runId === rootId));
  const id = options.id ?? start?.model ?? 'replay';
  let served = 0;
  let divergence: Divergence | undefined;

  function fail(found: Divergence): void {
    divergence ??= found;
    if (options.strict) {
      throw new ModelError({
        message: `Replay diverged at step ${found.step}: ${found.message}.`,
        code: 'script_exhausted',
        provider: 'replay',
        retryable: false,
      });
    }
  }

  async function generate(request: ModelRequest): Promise<ModelResponse> {
    if (request.signal?.aborted) {
      throw new ModelError({
        message: 'The model call was aborted.',
        code: 'model_aborted',
        provider: 'replay',
        retryable: false,
      });
    }
    const entry = recorded[served];
    if (!entry) {
      // The step after the last recorded one (steps are numbered from 0, so 0 when nothing was recorded).
      const last = recorded.at(-1);
      const step = last ? last.response.step + 1 : 0;
      fail({
        step,
        kind: 'extra_call',
        message: `call ${served + 1} has no recorded reply (the trace has ${recorded.length})`,
      });
      throw new ModelError({
        message: `Replay ran out of recorded replies: call ${served + 1}, the trace has ${recorded.length}.`,
        code: 'script_exhausted',
        provider: 'replay',
        retryable: false,
      });
    }
    if (entry.request) {
      const found = compareRequest(entry.response.step, entry.request, request);
      if (found) fail(found);
    }
    served++;
    const r = entry.response;
    return {
      text: r.text,
      toolCalls: r.toolCalls,
      usage: r.usage,
      modelId: r.modelId ?? id,
      finishReason: r.toolCalls?.length ? 'tool_calls' : 'stop',
    };
  }

  return {
    id,
    capabilities: { nativeTools: true, streaming: true },
    get divergence() {
      return divergence;
    },
    get served() {
      return served;
    },
    get remaining() {
      return recorded.length - served;
    },
    generate,
    async *stream(request: ModelRequest): AsyncIterable<ModelChunk> {
      const response = await generate(request);
      if (response.text) yield { type: 'text_delta', text: response.text };
      for (const [index, call] of (response.toolCalls ?? []).entries()) {
        yield { type: 'tool_call_delta', index, id: call.id, name: call.name, argumentsDelta: call.arguments };
      }
      yield { type: 'response', response };
    },
  };
}

function pairs(events: readonly AgentEvent[]): Recorded[] {
  const out: Recorded[] = [];
  let pending: EventOf<'model_request'> | undefined;
  for (const event of events) {
    if (event.type === 'model_request') pending = event;
    else if (event.type === 'model_response') {
      out.push({ request: pending, response: event });
      pending = undefined;
    }
  }
  return out;
}
