import { ConfigError } from '../core/index.js';
import {
  demoModel,
  findLocalModel,
  llamaCpp,
  type Model,
  ollama,
  ollamaAvailable,
  resolveModel,
} from '../llm/index.js';
import { readUserConfig } from './user-config.js';

/** Every way to configure a model, shown when none is. */
export const NO_MODEL_MESSAGE = `No model is configured, no local model was found in ~/.thinkflow/models, and no Ollama answers on localhost. Choose one:
  --model demo                          a rule-based simulation, no LLM needed (try it first)
  --model openai:gpt-4o-mini            with OPENAI_API_KEY set (OPENAI_BASE_URL for another endpoint)
  --model anthropic:claude-sonnet-4-5   with ANTHROPIC_API_KEY set
  --model ollama:llama3.1               a local Ollama (OLLAMA_HOST, default http://127.0.0.1:11434)
  --model compat:http://HOST:PORT/v1#MODEL   any OpenAI-compatible server (vLLM, llama.cpp, LM Studio, DeepSeek, Qwen)
  --model llamacpp:PATH.gguf            a local GGUF file (or: thinkflow models pull)
  --model scripted:FILE.json            replies from a JSON file, for tests
or set THINKFLOW_MODEL to one of these, or save a default: thinkflow config set model demo`;

/** The model spec in force: `--model`, else THINKFLOW_MODEL, else the saved default (`thinkflow config set model`). */
export function chosenModelSpec(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return flag || env.THINKFLOW_MODEL || readUserConfig(env).model;
}

/** What `selectModel` passes on to the provider. */
export interface SelectModelOptions {
  /** `-O key=value` parameters (see `ResolveModelOptions.providerOptions`). */
  providerOptions?: Record<string, unknown>;
}

/**
 * Resolves the CLI's model: `--model`, THINKFLOW_MODEL or the saved default. With none: a pulled local
 * model if there is one, else Ollama if it answers on localhost, else an error listing every way to
 * configure one.
 */
export async function selectModel(
  spec: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  options: SelectModelOptions = {},
): Promise<Model> {
  const chosen = chosenModelSpec(spec, env);
  if (chosen === 'demo') return demoModel();
  if (chosen) return resolveModel(chosen, env, options);
  const local = findLocalModel();
  if (local) return llamaCpp({ modelPath: local });
  const host = env.OLLAMA_HOST ?? 'http://127.0.0.1:11434';
  if (await ollamaAvailable(host)) {
    const model = await firstOllamaModel(host);
    if (model) return ollama({ host, model, options: options.providerOptions });
  }
  throw new ConfigError({ message: NO_MODEL_MESSAGE });
}

async function firstOllamaModel(host: string): Promise<string | undefined> {
  try {
    const response = await fetch(new URL('/api/tags', host), { signal: AbortSignal.timeout(2_000) });
    const body = (await response.json()) as { models?: { name?: string }[] };
    return body.models?.find((m) => m.name)?.name;
  } catch {
    return undefined;
  }
}
