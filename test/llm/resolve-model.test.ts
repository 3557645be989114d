import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, resolveModel } from '../../src/index.js';
import { startAnthropicServer } from './providers/anthropic-server.js';
import { startGeminiServer } from './providers/gemini-server.js';
import { startOllamaServer } from './providers/ollama-server.js';
import { startOpenAIServer } from './providers/openai-server.js';
import { startResponsesServer } from './providers/responses-server.js';

const dir = mkdtempSync(join(tmpdir(), 'thinkflow-resolve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('resolveModel', () => {
  it("passes providerOptions into the request: the body for anthropic, Ollama's options; llamacpp refuses them", async () => {
    const claude = await startAnthropicServer();
    const local = await startOllamaServer();
    try {
      claude.push('hi');
      const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: `${claude.url}/v1`, OLLAMA_HOST: local.url };
      const providerOptions = { top_k: 40, metadata: { user_id: 'u1' } };
      await resolveModel('anthropic:claude-test', env, { providerOptions }).generate({
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(claude.requests[0].body).toMatchObject({ model: 'claude-test', top_k: 40, metadata: { user_id: 'u1' } });
      local.push('hi');
      await resolveModel('ollama:qwen', env, { providerOptions: { num_ctx: 8192 } }).generate({
        messages: [{ role: 'user', content: 'hi' }],
        temperature: 0.1,
      });
      expect(local.requests[0].body.options).toEqual({ num_ctx: 8192, temperature: 0.1 });
    } finally {
      await claude.close();
      await local.close();
    }
    expect(configError(() => resolveModel('llamacpp:/x.gguf', {}, { providerOptions: { a: 1 } })).message).toMatch(
      /llamacpp takes none/,
    );
  });

  it("passes providerOptions to the Responses API body and Gemini's generationConfig, where the request's own fields win", async () => {
    const responses = await startResponsesServer();
    const google = await startGeminiServer();
    try {
      const env = {
        OPENAI_API_KEY: 'sk-x',
        OPENAI_BASE_URL: `${responses.url}/v1`,
        GEMINI_API_KEY: 'g',
        GEMINI_BASE_URL: `${google.url}/v1beta`,
      };
      const ask = { messages: [{ role: 'user' as const, content: 'hi' }], temperature: 0.2 };
      responses.push('hi');
      await resolveModel('openai-responses:gpt-test', env, {
        providerOptions: { top_p: 0.9, temperature: 1, model: 'other' },
      }).generate(ask);
      expect(responses.requests[0].body).toMatchObject({ model: 'gpt-test', top_p: 0.9, temperature: 0.2 });
      google.push('hi');
      await resolveModel('gemini:gemini-test', env, { providerOptions: { topK: 40, temperature: 1 } }).generate(ask);
      expect(google.requests[0].body.generationConfig).toEqual({ topK: 40, temperature: 0.2 });
    } finally {
      await responses.close();
      await google.close();
    }
  });

  it('builds each provider from its spec', () => {
    expect(resolveModel('openai:gpt-4o-mini', { OPENAI_API_KEY: 'sk-x' }).id).toBe('openai:gpt-4o-mini');
    expect(resolveModel('anthropic:claude-test', { ANTHROPIC_API_KEY: 'k' }).id).toBe('anthropic:claude-test');
    expect(resolveModel('ollama:qwen2.5:7b', {}).id).toBe('ollama:qwen2.5:7b');
    expect(resolveModel('compat:http://127.0.0.1:8080/v1#qwen', {}).id).toBe('compat:http://127.0.0.1:8080/v1#qwen');
    expect(resolveModel('demo', {}).capabilities).toBeDefined();
  });

  it('uses THINKFLOW_MODEL when no spec is given', () => {
    expect(resolveModel(undefined, { THINKFLOW_MODEL: 'ollama:llama3.1' }).id).toBe('ollama:llama3.1');
  });

  it('names the environment variable to set when a key is missing', () => {
    expect(configError(() => resolveModel('openai:gpt-4o', {})).message).toMatch(/OPENAI_API_KEY is not set/);
    expect(configError(() => resolveModel('anthropic:claude', {})).message).toMatch(/ANTHROPIC_API_KEY is not set/);
    expect(configError(() => resolveModel(undefined, {})).message).toMatch(/THINKFLOW_MODEL/);
  });

  it('needs no OpenAI key when OPENAI_BASE_URL points at another server', () => {
    expect(resolveModel('openai:local', { OPENAI_BASE_URL: 'http://127.0.0.1:1234/v1' }).id).toBe('openai:local');
  });

  it('lists the valid forms for an unknown prefix or a malformed spec', () => {
    const unknown = configError(() => resolveModel('mistral:large', {}));
    expect(unknown.message).toMatch(/Unknown model spec "mistral:large"/);
    expect(unknown.message).toMatch(/compat:URL#MODEL/);
    expect(configError(() => resolveModel('compat:not-a-url', {})).message).toMatch(/expected compat:URL#MODEL/);
    expect(configError(() => resolveModel('ollama:', {})).message).toMatch(/expected ollama:MODEL/);
    expect(configError(() => resolveModel('openai:m', { OPENAI_BASE_URL: 'localhost:8080/v1' })).message).toMatch(
      /baseURL "localhost:8080\/v1" is not an http\(s\) URL/,
    );
  });

  it('serves a scripted:FILE.json script of strings and responses', async () => {
    const file = join(dir, 'script.json');
    writeFileSync(file, JSON.stringify(['hello', { text: '', toolCalls: [{ id: 'c1', name: 't', arguments: '{}' }] }]));
    const model = resolveModel(`scripted:${file}`, {});
    expect((await model.generate({ messages: [] })).text).toBe('hello');
    expect((await model.generate({ messages: [] })).toolCalls?.[0].name).toBe('t');
  });

  it('reads a script file that starts with a byte-order mark', async () => {
    const file = join(dir, 'bom.json');
    writeFileSync(file, `\uFEFF${JSON.stringify(['你好'])}`);
    expect((await resolveModel(`scripted:${file}`, {}).generate({ messages: [] })).text).toBe('你好');
  });

  it('names the file and the problem in a bad script', () => {
    const notJson = join(dir, 'bad.json');
    writeFileSync(notJson, '["unterminated');
    expect(configError(() => resolveModel(`scripted:${notJson}`, {})).message).toMatch(/bad\.json is not valid JSON/);
    const wrong = join(dir, 'wrong.json');
    writeFileSync(wrong, JSON.stringify(['ok', { toolCalls: [] }]));
    expect(configError(() => resolveModel(`scripted:${wrong}`, {})).message).toMatch(/wrong\.json.*reply \[1\]\.text/);
    expect(configError(() => resolveModel(`scripted:${join(dir, 'missing.json')}`, {})).message).toMatch(
      /Cannot read the script file .*missing\.json/,
    );
  });

  it('sends the compat key and the OpenAI base URL from the environment', async () => {
    const server = await startOpenAIServer();
    try {
      server.push('one', 'two');
      await resolveModel(`compat:${server.url}/v1#m1`, { THINKFLOW_COMPAT_API_KEY: 'compat-key' }).generate({
        messages: [],
      });
      await resolveModel('openai:m2', { OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'sk-env' }).generate({
        messages: [],
        maxTokens: 9,
      });
      expect(server.requests[1].body.max_tokens).toBe(9);
      expect(server.requests.map((r) => [r.body.model, r.headers.authorization])).toEqual([
        ['m1', 'Bearer compat-key'],
        ['m2', 'Bearer sk-env'],
      ]);
    } finally {
      await server.close();
    }
  });
});
