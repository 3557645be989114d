import { z } from 'zod';
import { ConfigError, isThinkflowError, ModelResponse, nodeBuiltin, processEnv, withoutBom } from '../core/index.js';
import { demoModel } from './demo-model.js';
import type { Model } from './model.js';
import { anthropic } from './providers/anthropic/index.js';
import { gemini } from './providers/gemini/index.js';
import { llamaCpp } from './providers/llamacpp/index.js';
import { ollama } from './providers/ollama/index.js';
import { openaiCompatible } from './providers/openai-compatible/index.js';
import { openaiResponses } from './providers/openai-responses/index.js';
import { scriptedModel } from './scripted-model.js';

/** The contents of a `scripted:FILE.json` spec: replies served in order, each text or a whole ModelResponse. */
export const ScriptFile = z.array(z.union([z.string(), ModelResponse]));
export type ScriptFile = z.infer<typeof ScriptFile>;

/** The environment variables resolveModel reads. */
export type ModelEnv = Partial<
  Record<
    | 'OPENAI_API_KEY'
    | 'OPENAI_BASE_URL'
    | 'ANTHROPIC_API_KEY'
    | 'ANTHROPIC_BASE_URL'
    | 'GEMINI_API_KEY'
    | 'GOOGLE_API_KEY'
    | 'GEMINI_BASE_URL'
    | 'OLLAMA_HOST'
    | 'THINKFLOW_COMPAT_API_KEY'
    | 'THINKFLOW_MODEL',
    string | undefined
  >
>;

/** Every spec form, for help texts and error messages. */
export const MODEL_SPEC_FORMS = [
  'openai:MODEL           (OPENAI_API_KEY; OPENAI_BASE_URL optional)',
  'openai-responses:MODEL (the Responses API; OPENAI_API_KEY, OPENAI_BASE_URL optional)',
  'anthropic:MODEL        (ANTHROPIC_API_KEY)',
  'gemini:MODEL           (GEMINI_API_KEY or GOOGLE_API_KEY)',
  'ollama:MODEL           (OLLAMA_HOST optional, default 127.0.0.1:11434)',
  'compat:URL#MODEL       (any OpenAI-compatible server; THINKFLOW_COMPAT_API_KEY optional)',
  'llamacpp:PATH.gguf     (a local GGUF file, run in-process; thinkflow models pull)',
  'scripted:FILE.json     (a JSON array of replies)',
  'demo                   (the built-in demo model, no key needed)',
] as const;

const OPENAI_URL = 'https://api.openai.com/v1';

/** How resolveModel builds the model, beyond the spec. */
export interface ResolveModelOptions {
  /**
   * Extra provider parameters (the CLI's `-O key=value`): merged into the request body for openai,
   * openai-responses, anthropic and compat, into Gemini's `generationConfig` and Ollama's `options`.
   * Demo and scripted models take none and ignore them; llamacpp refuses them.
   */
  providerOptions?: Record<string, unknown>;
}

/**
 * Builds a Model from a spec string, as the CLI and config files give it. With no spec, uses
 * THINKFLOW_MODEL. A missing key or a bad spec is a ConfigError that says what to set.
 *
 * @example
 * const model = resolveModel('ollama:qwen2.5:7b');
 * const fromEnv = resolveModel(undefined, { THINKFLOW_MODEL: 'openai:gpt-4o-mini', OPENAI_API_KEY: 'sk-...' });
 */
export function resolveModel(spec?: string, env: ModelEnv = processEnv(), options: ResolveModelOptions = {}): Model {
  const extra =
    options.providerOptions && Object.keys(options.providerOptions).length ? options.providerOptions : undefined;
  const value = (spec ?? env.THINKFLOW_MODEL ?? '').trim();
  if (!value) {
    throw new ConfigError({
      message: `No model given. Pass a model spec or set THINKFLOW_MODEL to one of:\n  ${forms()}`,
    });
  }
  if (value === 'demo') return demoModel();
  const colon = value.indexOf(':');
  const prefix = colon < 0 ? value : value.slice(0, colon);
  const rest = colon < 0 ? '' : value.slice(colon + 1).trim();
  switch (prefix) {
    case 'openai': {
      const model = need(rest, value, 'openai:MODEL');
      const baseURL = env.OPENAI_BASE_URL?.trim() || OPENAI_URL;
      const apiKey = env.OPENAI_API_KEY?.trim() || undefined;
      if (!apiKey && baseURL === OPENAI_URL) {
        throw new ConfigError({
          message: `OPENAI_API_KEY is not set. Set it to use "${value}" (or set OPENAI_BASE_URL to a server that needs no key).`,
        });
      }
      return openaiCompatible({
        baseURL,
        apiKey,
        model,
        id: `openai:${model}`,
        provider: 'openai',
        maxTokensField: baseURL === OPENAI_URL ? 'max_completion_tokens' : 'max_tokens',
        extraBody: extra,
      });
    }
    case 'openai-responses': {
      const model = need(rest, value, 'openai-responses:MODEL');
      const baseURL = env.OPENAI_BASE_URL?.trim() || OPENAI_URL;
      const apiKey = env.OPENAI_API_KEY?.trim() || undefined;
      if (!apiKey && baseURL === OPENAI_URL) {
        throw new ConfigError({ message: `OPENAI_API_KEY is not set. Set it to use "${value}".` });
      }
      return openaiResponses({ apiKey, model, baseURL, extraBody: extra });
    }
    case 'anthropic': {
      const model = need(rest, value, 'anthropic:MODEL');
      const apiKey = env.ANTHROPIC_API_KEY?.trim();
      if (!apiKey) throw new ConfigError({ message: `ANTHROPIC_API_KEY is not set. Set it to use "${value}".` });
      return anthropic({ apiKey, model, baseURL: env.ANTHROPIC_BASE_URL?.trim() || undefined, extraBody: extra });
    }
    case 'gemini': {
      const model = need(rest, value, 'gemini:MODEL');
      const apiKey = env.GEMINI_API_KEY?.trim() || env.GOOGLE_API_KEY?.trim();
      if (!apiKey) {
        throw new ConfigError({ message: `GEMINI_API_KEY (or GOOGLE_API_KEY) is not set. Set it to use "${value}".` });
      }
      return gemini({ apiKey, model, baseURL: env.GEMINI_BASE_URL?.trim() || undefined, generationConfig: extra });
    }
    case 'ollama':
      return ollama({ model: need(rest, value, 'ollama:MODEL'), host: env.OLLAMA_HOST, options: extra });
    case 'compat': {
      const hash = rest.lastIndexOf('#');
      const baseURL = hash < 0 ? '' : rest.slice(0, hash).trim();
      const model = hash < 0 ? '' : rest.slice(hash + 1).trim();
      if (!/^https?:\/\/\S+$/i.test(baseURL) || !model) {
        throw new ConfigError({
          message: `Bad model spec "${value}": expected compat:URL#MODEL, e.g. compat:http://127.0.0.1:8080/v1#qwen2.5-7b.`,
        });
      }
      const apiKey = env.THINKFLOW_COMPAT_API_KEY?.trim() || undefined;
      return openaiCompatible({ baseURL, apiKey, model, id: `compat:${baseURL}#${model}`, extraBody: extra });
    }
    case 'llamacpp': {
      if (extra) throw new ConfigError({ message: 'Provider options (-O) go to HTTP providers; llamacpp takes none.' });
      const feature = 'A local GGUF model (llamacpp:)';
      const home = () => nodeBuiltin('node:os', feature).homedir();
      const path = need(rest, value, 'llamacpp:PATH.gguf').replace(/^~(?=$|[\\/])/, home);
      if (!nodeBuiltin('node:fs', feature).existsSync(path)) {
        throw new ConfigError({ message: `No GGUF file at ${path}: check the path, or run "thinkflow models pull".` });
      }
      return llamaCpp({ modelPath: path });
    }
    case 'scripted':
      return scriptedModel(readScript(need(rest, value, 'scripted:FILE.json')), { id: `scripted:${rest}` });
    default:
      throw new ConfigError({ message: `Unknown model spec "${value}". Use one of:\n  ${forms()}` });
  }
}

function forms(): string {
  return MODEL_SPEC_FORMS.join('\n  ');
}

function need(part: string, spec: string, form: string): string {
  if (!part) throw new ConfigError({ message: `Bad model spec "${spec}": expected ${form}.` });
  return part;
}

function readScript(file: string): ScriptFile {
  let text: string;
  try {
    text = withoutBom(nodeBuiltin('node:fs', 'A scripted:FILE.json model').readFileSync(file, 'utf8'));
  } catch (cause) {
    if (isThinkflowError(cause)) throw cause;
    throw new ConfigError({ message: `Cannot read the script file ${file}: check the path.`, cause });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError({ message: `The script file ${file} is not valid JSON: ${(cause as Error).message}`, cause });
  }
  const shape = 'a JSON array of replies, each a string or { "text": ..., "toolCalls"?: [...] }';
  if (!Array.isArray(json)) throw new ConfigError({ message: `The script file ${file} must be ${shape}.` });
  // Check each reply on its own so the message points at the reply and field that is wrong.
  for (const [index, reply] of json.entries()) {
    if (typeof reply === 'string') continue;
    const parsed = ModelResponse.safeParse(reply);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue.path.length > 0 ? `.${issue.path.join('.')}` : '';
      throw new ConfigError({
        message: `The script file ${file} must be ${shape}; reply [${index}]${field}: ${issue.message}.`,
      });
    }
  }
  return ScriptFile.parse(json);
}
