import {
  ConfigError,
  errorMessage,
  isModelError,
  type ModelChunk,
  ModelError,
  type ModelRequest,
  type ModelResponse,
} from '../core/index.js';
import type { Model } from './model.js';

/** Options for {@link fallbackModels}. */
export interface FallbackModelsOptions {
  /** The Model's `id`. Default `fallback(<id>,<id>,...)`. */
  id?: string;
  /** Called when a model fails and the next one is tried (e.g. to log or count). */
  onFallback?(info: { from: string; to: string; error: unknown }): void;
}

/**
 * A Model that tries `models` in order: when one fails (each provider has already retried what it
 * could, so its error is non-retryable or exhausted), the next one is asked. The response's
 * `modelId` says which model answered. An abort stops at once; it never falls through.
 * A stream falls back only before its first chunk, since chunks already delivered cannot be taken back.
 *
 * @example
 * const model = fallbackModels([
 *   openaiCompatible({ baseURL: 'https://api.openai.com/v1', apiKey, model: 'gpt-4o-mini' }),
 *   ollama({ model: 'qwen2.5:7b' }),
 * ]);
 */
export function fallbackModels(models: readonly Model[], options: FallbackModelsOptions = {}): Model {
  if (models.length === 0) throw new ConfigError({ message: 'fallbackModels needs at least one model.' });
  const id = options.id ?? `fallback(${models.map((m) => m.id).join(',')})`;
  const windows = models.map((m) => m.contextWindow).filter((w): w is number => w !== undefined);

  function isAbort(error: unknown, request: ModelRequest): boolean {
    return request.signal?.aborted === true || (isModelError(error) && error.code === 'model_aborted');
  }

  function next(index: number, error: unknown): void {
    const to = models[index + 1];
    if (to) options.onFallback?.({ from: models[index].id, to: to.id, error });
  }

  function exhausted(errors: unknown[]): ModelError {
    const last = errors.at(-1);
    const lines = errors.map((e, i) => `${models[i].id}: ${errorMessage(e)}`).join('; ');
    return new ModelError({
      message: `Every model failed (${lines}).`,
      code: (isModelError(last) ? last.code : 'model_http') as ModelErrorCode,
      provider: 'fallback',
      status: isModelError(last) ? last.status : undefined,
      retryable: false,
      providerMessage: isModelError(last) ? last.providerMessage : undefined,
      cause: last,
    });
  }

  return {
    id,
    contextWindow: windows.length > 0 ? Math.min(...windows) : undefined,
    capabilities: {
      // A protocol chosen for the primary must also work for every backup.
      nativeTools: models.every((m) => m.capabilities.nativeTools),
      streaming: models.every((m) => m.capabilities.streaming),
    },
    async generate(request): Promise<ModelResponse> {
      const errors: unknown[] = [];
      for (const [index, model] of models.entries()) {
        try {
          const response = await model.generate(request);
          return { ...response, modelId: response.modelId ?? model.id };
        } catch (error) {
          if (isAbort(error, request)) throw error;
          errors.push(error);
          next(index, error);
        }
      }
      throw exhausted(errors);
    },
    async *stream(request): AsyncGenerator<ModelChunk, void, undefined> {
      const errors: unknown[] = [];
      for (const [index, model] of models.entries()) {
        let started = false;
        try {
          for await (const chunk of model.stream(request)) {
            started = true;
            yield chunk.type === 'response'
              ? { type: 'response', response: { ...chunk.response, modelId: chunk.response.modelId ?? model.id } }
              : chunk;
          }
          return;
        } catch (error) {
          if (started || isAbort(error, request)) throw error;
          errors.push(error);
          next(index, error);
        }
      }
      throw exhausted(errors);
    },
  };
}

type ModelErrorCode = NonNullable<ConstructorParameters<typeof ModelError>[0]['code']>;
