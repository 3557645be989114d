import { ConfigError, errorMessage, importOptional } from '../../../core/index.js';
import type { ChatHistoryItem } from './convert-messages.js';

/** A compiled grammar handle (node-llama-cpp `LlamaGrammar`); `grammar` is its GBNF text. */
export interface Grammar {
  readonly grammar: string;
}

/** What one generation returns. */
export interface Generation {
  text: string;
  stopReason: string;
}

/** Options for one generation. */
export interface GenerateOptions {
  grammar?: Grammar;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  stop?: string[];
  signal?: AbortSignal;
  onTextChunk?: (text: string) => void;
}

/** The loaded model: one context sequence, used by one request at a time. */
export interface LlamaRuntime {
  readonly contextSize: number;
  /** Tokens the history takes once rendered through the model's chat template. */
  countPromptTokens(history: ChatHistoryItem[]): number;
  countTokens(text: string): number;
  generate(history: ChatHistoryItem[], options: GenerateOptions): Promise<Generation>;
  jsonGrammar(schema: Record<string, unknown>): Promise<Grammar>;
  gbnfGrammar(gbnf: string): Promise<Grammar>;
  dispose(): Promise<void>;
}

/** Options that decide how the model is loaded. */
export interface LoadOptions {
  modelPath: string;
  contextSize?: number;
  gpuLayers?: number | 'auto';
  /** CPU threads for evaluation. 0 lets llama.cpp use every core (its default). */
  threads?: number;
  /** Use the GPU if llama.cpp finds one (default `'auto'`); `false` forces the CPU. */
  gpu?: false | 'auto';
}

// The subset of node-llama-cpp used here. Declared locally so thinkflow compiles without the optional package.
interface NodeLlamaCpp {
  getLlama(options: { gpu?: false | 'auto' }): Promise<Llama>;
  LlamaChat: new (options: { contextSequence: unknown }) => LlamaChat;
}
interface Llama {
  loadModel(options: { modelPath: string; gpuLayers?: number | 'auto' }): Promise<LlamaModel>;
  createGrammarForJsonSchema(schema: Record<string, unknown>): Promise<Grammar>;
  createGrammar(options: { grammar: string }): Promise<Grammar>;
  dispose(): Promise<void>;
}
interface LlamaModel {
  readonly tokenizer: unknown;
  tokenize(text: string): unknown[];
  createContext(options: { contextSize?: number; threads?: number }): Promise<LlamaContext>;
}
interface LlamaContext {
  readonly contextSize: number;
  getSequence(): unknown;
}
interface LlamaChat {
  readonly chatWrapper: {
    generateContextState(options: { chatHistory: ChatHistoryItem[] }): {
      contextText: { tokenize(tokenizer: unknown): unknown[] };
    };
  };
  generateResponse(
    history: ChatHistoryItem[],
    options: Record<string, unknown>,
  ): Promise<{ response: string; metadata: { stopReason: string } }>;
}

/**
 * Imports node-llama-cpp (an optional dependency) and loads the model. Called once, on first use.
 * A missing package or an unreadable model file is a `ConfigError` naming the fix.
 */
export async function loadLlamaRuntime(options: LoadOptions): Promise<LlamaRuntime> {
  const lib = await importNodeLlamaCpp();
  const llama = await lib.getLlama({ gpu: options.gpu ?? 'auto' });
  let model: LlamaModel;
  try {
    model = await llama.loadModel({ modelPath: options.modelPath, gpuLayers: options.gpuLayers ?? 'auto' });
  } catch (error) {
    await llama.dispose();
    throw new ConfigError({
      message: `Could not load the GGUF model "${options.modelPath}": ${errorMessage(error)}. Check the path, or run "thinkflow models pull".`,
      cause: error,
    });
  }
  const context = await model.createContext({ contextSize: options.contextSize, threads: options.threads });
  const chat = new lib.LlamaChat({ contextSequence: context.getSequence() });
  return {
    contextSize: context.contextSize,
    countPromptTokens: (history) =>
      chat.chatWrapper.generateContextState({ chatHistory: history }).contextText.tokenize(model.tokenizer).length,
    countTokens: (text) => model.tokenize(text).length,
    async generate(history, generate) {
      const result = await chat.generateResponse(history, {
        grammar: generate.grammar,
        maxTokens: generate.maxTokens,
        temperature: generate.temperature,
        topP: generate.topP,
        customStopTriggers: generate.stop?.length ? generate.stop : undefined,
        signal: generate.signal,
        stopOnAbortSignal: true,
        onTextChunk: generate.onTextChunk,
      });
      return { text: result.response, stopReason: result.metadata.stopReason };
    },
    jsonGrammar: (schema) => llama.createGrammarForJsonSchema(schema),
    gbnfGrammar: (gbnf) => llama.createGrammar({ grammar: gbnf }),
    dispose: () => llama.dispose(),
  };
}

function importNodeLlamaCpp(): Promise<NodeLlamaCpp> {
  return importOptional<NodeLlamaCpp>('llamaCpp', 'node-llama-cpp');
}
