import {
  ConfigError,
  type ModelChunk,
  ModelError,
  type ModelRequest,
  type ModelResponse,
  mulberry32,
} from '../../core/index.js';
import type { Model } from '../model.js';
import { type ChaosCorruption, CORRUPTIONS } from './chaos-corruptions.js';

/** The seeded PRNG the faults are drawn from; re-exported so callers can draw the same sequence. */
export { mulberry32 };

/** Every fault `chaosModel` can inject: reply corruptions, plus HTTP 429 and 500 errors. */
export type ChaosKind = ChaosCorruption | 'rate_limit' | 'server_error';

/** The order in which rates are laid out on [0, 1); fixed so a seed means the same thing everywhere. */
export const CHAOS_KINDS: readonly ChaosKind[] = [
  'fullwidth_colon',
  'code_fence',
  'prose_around_json',
  'truncated_json',
  'wrong_tool_name',
  'missing_field',
  'hallucinated_observation',
  'empty_reply',
  'rate_limit',
  'server_error',
];

export interface ChaosModelOptions {
  /** Probability per call of each fault; they must sum to at most 1. */
  rates: Partial<Record<ChaosKind, number>>;
  /** Seed of the PRNG (mulberry32). The same seed and the same calls give the same faults. Default 1. */
  seed?: number;
}

/** One call's fate. */
export interface ChaosRecord {
  call: number;
  kind: ChaosKind | 'none';
}

/** A chaos-wrapped model; `log` says what was done to each call. */
export interface ChaosModel extends Model {
  readonly log: readonly ChaosRecord[];
}

/**
 * Wraps a model and corrupts its replies the way real models do (full-width colons, code fences,
 * prose around JSON, truncated JSON, wrong tool names, missing fields, hallucinated observations,
 * empty replies) or fails calls with 429 and 500 `ModelError`s, at the given rates, reproducibly
 * for a seed. For testing how robust an agent is.
 *
 * @example
 * const model = chaosModel(scriptedModel(replies), { rates: { truncated_json: 0.2, rate_limit: 0.1 }, seed: 7 });
 */
export function chaosModel(model: Model, options: ChaosModelOptions): ChaosModel {
  const total = CHAOS_KINDS.reduce((sum, kind) => sum + (options.rates[kind] ?? 0), 0);
  if (total > 1 + 1e-9 || CHAOS_KINDS.some((k) => (options.rates[k] ?? 0) < 0)) {
    throw new ConfigError({
      message: `chaosModel rates must be between 0 and 1 and sum to at most 1 (they sum to ${total}).`,
    });
  }
  const rand = mulberry32(options.seed ?? 1);
  const log: ChaosRecord[] = [];

  function pick(): ChaosKind | 'none' {
    const roll = rand();
    let cumulative = 0;
    for (const kind of CHAOS_KINDS) {
      cumulative += options.rates[kind] ?? 0;
      if (roll < cumulative) return kind;
    }
    return 'none';
  }

  async function generate(request: ModelRequest): Promise<ModelResponse> {
    const kind = pick();
    log.push({ call: log.length, kind });
    if (kind === 'rate_limit') throw httpError(model.id, 429);
    if (kind === 'server_error') throw httpError(model.id, 500);
    const response = await model.generate(request);
    return kind === 'none' ? response : CORRUPTIONS[kind](response, rand);
  }

  return {
    id: model.id,
    capabilities: model.capabilities,
    contextWindow: model.contextWindow,
    log,
    generate,
    async *stream(request: ModelRequest): AsyncIterable<ModelChunk> {
      // Corruptions act on whole replies, so the stream is the corrupted reply cut into pieces.
      const response = await generate(request);
      for (let i = 0; i < response.text.length; i += 16) {
        yield { type: 'text_delta', text: response.text.slice(i, i + 16) };
      }
      for (const [index, call] of (response.toolCalls ?? []).entries()) {
        yield { type: 'tool_call_delta', index, id: call.id, name: call.name, argumentsDelta: call.arguments };
      }
      yield { type: 'response', response };
    },
  };
}

function httpError(provider: string, status: 429 | 500): ModelError {
  const rateLimited = status === 429;
  return new ModelError({
    message: rateLimited
      ? `${provider} returned HTTP 429: Rate limit exceeded (injected by chaosModel). The provider is rate limiting; retry later or lower the request rate.`
      : `${provider} returned HTTP 500: Internal server error (injected by chaosModel). The provider failed; it may work if retried.`,
    code: 'model_http',
    provider,
    status,
    retryable: true,
    providerMessage: rateLimited ? 'Rate limit exceeded' : 'Internal server error',
    retryAfterSeconds: rateLimited ? 1 : undefined,
  });
}
