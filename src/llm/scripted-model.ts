import { type ModelChunk, ModelError, type ModelRequest, type ModelResponse } from '../core/index.js';
import type { Model, ModelCapabilities } from './model.js';

/** One scripted reply: plain text or a full response (with tool calls, usage, ...). */
export type ScriptedReply = string | ModelResponse;

export type ScriptFunction = (request: ModelRequest, callIndex: number) => ScriptedReply | Promise<ScriptedReply>;

export interface ScriptedModelOptions {
  id?: string;
  /** Milliseconds to wait before each reply (honours the signal). */
  delayMs?: number;
  contextWindow?: number;
  /** Split streamed text into chunks of this many characters (default 8). */
  streamChunkSize?: number;
  /** What the model claims it can do (e.g. `{ images: false }` to test a text-only model). */
  capabilities?: Partial<ModelCapabilities>;
  /**
   * Keep every request in `calls` (default true). A function script can serve calls without end (a soak,
   * a bench, a demo server): with `record: false` the model keeps none, so its memory stays flat.
   */
  record?: boolean;
}

/** A scripted model: also records every request it received. */
export interface ScriptedModel extends Model {
  /** Every request received, in order (the signal is dropped); empty with `record: false`. */
  readonly calls: Omit<ModelRequest, 'signal'>[];
}

/**
 * A model that replies from a script: a list served in order, or a function of the request.
 * It is thinkflow's test double for everything above the model layer.
 *
 * @example
 * const model = scriptedModel([
 *   { text: '', toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression":"2+2"}' }] },
 *   'The answer is 4.',
 * ]);
 */
export function scriptedModel(
  script: ScriptedReply[] | ScriptFunction,
  options: ScriptedModelOptions = {},
): ScriptedModel {
  const calls: Omit<ModelRequest, 'signal'>[] = [];
  const id = options.id ?? 'scripted';
  const record = options.record !== false;
  let served = 0;

  async function next(request: ModelRequest): Promise<ModelResponse> {
    const signal = request.signal;
    const index = served++;
    if (record) calls.push(withoutSignal(request));
    if (signal?.aborted) throw abortError(id);
    if (options.delayMs) await sleep(options.delayMs, signal, id);
    let reply: ScriptedReply;
    if (typeof script === 'function') {
      reply = await script(request, index);
    } else {
      if (index >= script.length) {
        throw new ModelError({
          message: `scriptedModel ran out of replies: call ${index + 1} but the script has ${script.length}. Add more replies to the script.`,
          code: 'script_exhausted',
          provider: 'scripted',
          retryable: false,
        });
      }
      reply = script[index];
    }
    if (signal?.aborted) throw abortError(id);
    return copyReply(typeof reply === 'string' ? { text: reply } : reply, id);
  }

  return {
    id,
    calls,
    contextWindow: options.contextWindow,
    capabilities: { nativeTools: true, streaming: true, ...options.capabilities },
    generate: next,
    stream: (request: ModelRequest) => streamOf(() => next(request), options.streamChunkSize ?? 8),
  };
}

/**
 * A reply as a stream: its reasoning, its text in pieces of `size` characters, its tool calls, then the
 * whole response. An iterator written out, not an async generator: a generator's pieces cost several
 * promise turns each, which made a streamed scripted run about 2.5× a run without streaming. A class,
 * not an object literal: a literal with a computed `[Symbol.asyncIterator]` method is built by V8's slow
 * path, about 250 ns each on Node 20 (a tenth of a streamed five-step run), where an instance costs 10.
 */
function streamOf(reply: () => Promise<ModelResponse>, size: number): AsyncIterable<ModelChunk> {
  return new ScriptedStream(reply, size);
}

class ScriptedStream implements AsyncIterableIterator<ModelChunk> {
  #chunks: ModelChunk[] | undefined = undefined;
  #at = 0;
  readonly #reply: () => Promise<ModelResponse>;
  readonly #size: number;

  constructor(reply: () => Promise<ModelResponse>, size: number) {
    this.#reply = reply;
    this.#size = size;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<ModelChunk> {
    return this;
  }

  async next(): Promise<IteratorResult<ModelChunk>> {
    this.#chunks ??= chunksOf(await this.#reply(), this.#size);
    const chunks = this.#chunks;
    return this.#at < chunks.length ? { value: chunks[this.#at++], done: false } : { value: undefined, done: true };
  }
}

function chunksOf(response: ModelResponse, size: number): ModelChunk[] {
  const chunks: ModelChunk[] = [];
  for (const part of response.reasoning ?? []) {
    if (part.text) chunks.push({ type: 'reasoning_delta', text: part.text });
  }
  for (let i = 0; i < response.text.length; i += size) {
    chunks.push({ type: 'text_delta', text: response.text.slice(i, i + size) });
  }
  for (const [index, call] of (response.toolCalls ?? []).entries()) {
    chunks.push({ type: 'tool_call_delta', index, id: call.id, name: call.name, argumentsDelta: call.arguments });
  }
  chunks.push({ type: 'response', response });
  return chunks;
}

/**
 * The script's reply as a fresh object (a script may serve one reply twice), with its finish reason and
 * model id filled in: one literal of one shape, as the loop's own record of a reply is (`ownReply`), not a
 * copy that then gains properties (on Node 20 that turns slow, and so does every later read of it;
 * docs/loop.md). A field the reply does not have is undefined.
 */
function copyReply(reply: ModelResponse, id: string): ModelResponse {
  const { text, toolCalls, reasoning, providerItems, compactions, usage, cached, cacheKey } = reply;
  const finishReason = reply.finishReason ?? (toolCalls?.length ? 'tool_calls' : 'stop');
  const modelId = reply.modelId ?? id;
  return { text, toolCalls, reasoning, providerItems, compactions, usage, finishReason, modelId, cached, cacheKey };
}

/** The request as recorded: every field but the signal (a plain copy is cheaper than a rest spread). */
function withoutSignal(request: ModelRequest): Omit<ModelRequest, 'signal'> {
  const copy: Omit<ModelRequest, 'signal'> = { messages: request.messages };
  if (request.tools !== undefined) copy.tools = request.tools;
  if (request.temperature !== undefined) copy.temperature = request.temperature;
  if (request.topP !== undefined) copy.topP = request.topP;
  if (request.maxTokens !== undefined) copy.maxTokens = request.maxTokens;
  if (request.stop !== undefined) copy.stop = request.stop;
  if (request.protocol !== undefined) copy.protocol = request.protocol;
  if (request.promptTools !== undefined) copy.promptTools = request.promptTools;
  if (request.responseFormat !== undefined) copy.responseFormat = request.responseFormat;
  return copy;
}

function abortError(provider: string): ModelError {
  return new ModelError({ message: 'The model call was aborted.', code: 'model_aborted', provider, retryable: false });
}

function sleep(ms: number, signal: AbortSignal | undefined, provider: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(provider));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
