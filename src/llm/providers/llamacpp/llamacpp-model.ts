import {
  assertPeers,
  createPushChannel,
  type ModelChunk,
  ModelError,
  type ModelRequest,
  type ModelResponse,
  TOOL_NAME_RULES,
} from '../../../core/index.js';
import type { Model } from '../../model.js';
import { withWireToolNames } from '../wire-tool-names.js';
import { convertMessages } from './convert-messages.js';
import { type Grammar, type LlamaRuntime, type LoadOptions, loadLlamaRuntime } from './llama-runtime.js';
import { reactGrammar } from './react-grammar.js';
import { replySchema } from './reply-schema.js';
import { toGrammarSchema } from './to-grammar-schema.js';

/** Options for `llamaCpp`. */
export interface LlamaCppOptions extends LoadOptions {
  /** Context window in tokens (default: the model's training context, as llama.cpp picks it). */
  contextSize?: number;
  /** Layers to offload to the GPU (default `'auto'`). */
  gpuLayers?: number | 'auto';
  /**
   * The protocol to constrain replies to when a request does not say (`request.protocol`):
   * `json` and `react` decode with a grammar built from the request's tools; `none` (default) does not.
   */
  protocol?: 'json' | 'react' | 'none';
}

/** A local GGUF model. `dispose()` frees the weights and the context. */
export interface LlamaCppModel extends Model {
  dispose(): Promise<void>;
}

const PROVIDER = 'llamacpp';

/**
 * A GGUF model run in-process by llama.cpp (through the optional node-llama-cpp package, imported on
 * first use). Chats through the model's own chat template. For the json and react protocols each
 * reply is decoded under a grammar built from the tool schemas, so it always parses and its
 * arguments match the tool. A prompt longer than the context is a `ModelError` (status 400).
 *
 * @example
 * const model = llamaCpp({ modelPath: join(homedir(), '.thinkflow/models/qwen2.5-0.5b-instruct-q4_k_m.gguf'), contextSize: 4096 });
 * const agent = new Agent({ model, protocol: 'json', tools: [calculatorTool] });
 */
export function llamaCpp(options: LlamaCppOptions): LlamaCppModel {
  assertPeers('llamaCpp');
  let runtime: Promise<LlamaRuntime> | undefined;
  const grammars = new Map<string, Promise<Grammar>>();
  let turn: Promise<unknown> = Promise.resolve();

  const load = () => {
    runtime ??= loadLlamaRuntime(options).catch((error: unknown) => {
      runtime = undefined;
      throw error;
    });
    return runtime;
  };

  function grammarFor(rt: LlamaRuntime, request: ModelRequest): Promise<Grammar> | undefined {
    const protocol = request.protocol ?? options.protocol;
    if (protocol !== 'json' && protocol !== 'react') return undefined;
    // No `tools` at all means the caller sent no specs (not "no tools"): constrain the shape only.
    const tools = request.tools ?? request.promptTools;
    const key = `${protocol}:${JSON.stringify(tools?.map((t) => [t.name, t.parameters]) ?? null)}`;
    let grammar = grammars.get(key);
    if (!grammar) {
      grammar = protocol === 'json' ? rt.jsonGrammar(replySchema(tools)) : reactGrammarFor(rt, tools);
      grammars.set(key, grammar);
    }
    return grammar;
  }

  async function run(request: ModelRequest, onText: (text: string) => void): Promise<ModelResponse> {
    const rt = await load();
    const history = convertMessages(request.messages);
    const promptTokens = rt.countPromptTokens(history);
    const room = rt.contextSize - promptTokens;
    if (room <= 0) {
      throw new ModelError({
        message: `The prompt is ${promptTokens} tokens but the model's context holds ${rt.contextSize}: shorten the conversation or raise contextSize.`,
        provider: PROVIDER,
        status: 400,
        retryable: false,
      });
    }
    if (request.signal?.aborted) throw aborted();
    const result = await rt.generate(history, {
      grammar: await grammarFor(rt, request),
      maxTokens: Math.min(request.maxTokens ?? room, room),
      temperature: request.temperature,
      topP: request.topP,
      stop: request.stop,
      signal: request.signal,
      onTextChunk: onText,
    });
    if (result.stopReason === 'abort' || request.signal?.aborted) throw aborted();
    return {
      text: result.text,
      finishReason: result.stopReason === 'maxTokens' ? 'length' : 'stop',
      usage: { promptTokens, completionTokens: rt.countTokens(result.text) },
      modelId: `${PROVIDER}:${options.modelPath}`,
    };
  }

  /** One generation at a time: the model has a single context sequence. */
  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = turn.then(work, work);
    turn = next.catch(() => undefined);
    return next;
  }

  const model: LlamaCppModel = {
    id: `${PROVIDER}:${options.modelPath}`,
    capabilities: { nativeTools: false, streaming: true, images: false },
    contextWindow: options.contextSize,
    generate: (request) => exclusive(() => run(request, () => undefined)),
    async *stream(request): AsyncIterable<ModelChunk> {
      // llama.cpp hands text to a callback; the channel turns it into chunks to pull.
      const chunks = createPushChannel<ModelChunk>();
      const onText = (text: string) => {
        if (text) chunks.push({ type: 'text_delta', text });
      };
      exclusive(() => run(request, onText)).then(
        (response) => {
          chunks.push({ type: 'response', response });
          chunks.close();
        },
        (error: unknown) => chunks.fail(error),
      );
      yield* chunks;
    },
    async dispose() {
      const loaded = runtime;
      runtime = undefined;
      grammars.clear();
      if (loaded) await (await loaded).dispose();
    },
  };
  // Tool names go into the json and react grammars as the OpenAI-style names models know best.
  return { ...withWireToolNames(model, TOOL_NAME_RULES.llamacpp), dispose: model.dispose };
}

async function reactGrammarFor(rt: LlamaRuntime, tools: ModelRequest['tools']): Promise<Grammar> {
  const specs: Array<{ name?: string; parameters: Record<string, unknown> }> = tools ?? [
    { parameters: { type: 'object', additionalProperties: true } },
  ];
  const parts = await Promise.all(
    specs.map(async (t) => ({ name: t.name, gbnf: (await rt.jsonGrammar(toGrammarSchema(t.parameters))).grammar })),
  );
  return rt.gbnfGrammar(reactGrammar(parts));
}

function aborted(): ModelError {
  return new ModelError({
    message: 'The model call was aborted.',
    code: 'model_aborted',
    provider: PROVIDER,
    retryable: false,
  });
}
