import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type ModelChunk, type ModelError, openaiCompatible } from '../../../src/index.js';
import { openaiStreamPieces, startOpenAIServer } from './openai-server.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'openai');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const API_KEY = 'sk-test-SECRET-0123456789abcdef';
const server = await startOpenAIServer();
afterAll(() => server.close());
beforeEach(() => server.reset());

function model(overrides: Partial<Parameters<typeof openaiCompatible>[0]> = {}) {
  return openaiCompatible({
    baseURL: `${server.url}/v1/`,
    apiKey: API_KEY,
    model: 'gpt-4o-mini',
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    ...overrides,
  });
}

async function collect(stream: AsyncIterable<ModelChunk>): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error as ModelError,
  );

const user = [{ role: 'user' as const, content: 'hi' }];

describe('openaiCompatible: request', () => {
  it('posts chat completions with converted messages, tools, auth and include_usage when streaming', async () => {
    server.push('ok', 'ok');
    await model().generate({
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
        },
        { role: 'tool', toolCallId: 'c1', content: 'sunny' },
      ],
      tools: [{ name: 'get_weather', description: 'weather', parameters: { type: 'object' } }],
      temperature: 0,
      maxTokens: 50,
      stop: ['Observation:'],
    });
    await collect(model().stream({ messages: user }));
    const [plain, streamed] = server.requests;
    expect(plain.path).toBe('/v1/chat/completions');
    expect(plain.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(plain.body).toMatchObject({
      model: 'gpt-4o-mini',
      temperature: 0,
      max_tokens: 50,
      stop: ['Observation:'],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'weather' } }],
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      ],
    });
    expect(plain.body.stream).toBeUndefined();
    expect(streamed.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('sends max_completion_tokens instead when asked (OpenAI reasoning models)', async () => {
    server.push('ok');
    await model({ maxTokensField: 'max_completion_tokens' }).generate({ messages: user, maxTokens: 7 });
    expect(server.requests[0].body).toMatchObject({ max_completion_tokens: 7 });
    expect(server.requests[0].body.max_tokens).toBeUndefined();
  });
});

describe('openaiCompatible: streaming', () => {
  it('assembles tool-call arguments split one character per chunk', async () => {
    const call = { id: 'call_x', name: 'search', arguments: '{"query":"split \\"across\\" chunks","k":3}' };
    server.push({ kind: 'stream', pieces: openaiStreamPieces({ text: '', toolCalls: [call] }, { size: 1 }) });
    const chunks = await collect(model().stream({ messages: user }));
    const deltas = chunks.filter((c) => c.type === 'tool_call_delta');
    expect(deltas.length).toBeGreaterThan(call.arguments.length);
    const last = chunks.at(-1);
    expect(last?.type === 'response' && last.response.toolCalls).toEqual([call]);
  });

  it('reassembles SSE lines split across TCP writes', async () => {
    const joined = openaiStreamPieces({ text: 'split lines' }).join('');
    const pieces = joined.match(/[\s\S]{1,7}/g) ?? [];
    server.push({ kind: 'stream', pieces, pauseMs: 1 });
    const last = (await collect(model().stream({ messages: user }))).at(-1);
    expect(last?.type === 'response' && last.response.text).toBe('split lines');
  });

  it('estimates usage when a vLLM stream sends none', async () => {
    server.push({ kind: 'stream', pieces: [fixture('vllm-stream-no-usage.sse')] });
    const last = (await collect(model().stream({ messages: user }))).at(-1);
    if (last?.type !== 'response') throw new Error('no response chunk');
    expect(last.response.text).toBe('Hello from vLLM');
    expect(last.response.usage?.estimated).toBe(true);
    expect(last.response.usage?.completionTokens).toBeGreaterThan(0);
    expect(last.response.modelId).toBe('openai-compatible:gpt-4o-mini');
  });

  it('keeps DeepSeek reasoning_content out of the text', async () => {
    server.push({ kind: 'stream', pieces: [fixture('deepseek-stream-reasoning.sse')] });
    const chunks = await collect(model().stream({ messages: user }));
    const last = chunks.at(-1);
    expect(last?.type === 'response' && last.response).toMatchObject({
      text: 'Answer: 42',
      usage: { promptTokens: 9, completionTokens: 20 },
    });
  });

  it('matches llama.cpp tool-call deltas that have ids but no index, and fixes finish_reason', async () => {
    server.push({ kind: 'stream', pieces: [fixture('llamacpp-stream-tool-calls-no-index.sse')] });
    const last = (await collect(model().stream({ messages: user }))).at(-1);
    if (last?.type !== 'response') throw new Error('no response chunk');
    expect(last.response.toolCalls).toEqual([
      { id: 'tc_a', name: 'search', arguments: '{"query": "node streams"}' },
      { id: 'tc_b', name: 'calculator', arguments: '{"expression":"1+1"}' },
    ]);
    expect(last.response.finishReason).toBe('tool_calls');
  });
});

describe('openaiCompatible: lenient JSON', () => {
  it('stringifies object arguments and generates missing tool-call ids (llama.cpp)', async () => {
    server.push({ kind: 'json', body: fixture('llamacpp-tool-call-object-args.json') });
    const response = await model().generate({ messages: user });
    expect(response.toolCalls).toHaveLength(1);
    expect(response.toolCalls?.[0]).toMatchObject({ name: 'get_weather', arguments: '{"city":"Berlin"}' });
    expect(response.toolCalls?.[0].id).toMatch(/^call_/);
    expect(response.finishReason).toBe('tool_calls');
    expect(response.usage?.estimated).toBe(true);
  });

  it('reads DeepSeek replies without reasoning in the text', async () => {
    server.push({ kind: 'json', body: fixture('deepseek-reasoner.json') });
    const response = await model().generate({ messages: user });
    expect(response).toMatchObject({ text: '17 * 23 = 391', usage: { promptTokens: 14, completionTokens: 96 } });
    expect(response.usage?.estimated).toBeUndefined();
  });
});

describe('openaiCompatible: resilience', () => {
  it('retries a 429 after Retry-After, then succeeds', async () => {
    server.push(
      { kind: 'json', status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'Rate limit' } } },
      'after the wait',
    );
    expect((await model().generate({ messages: user })).text).toBe('after the wait');
    expect(server.requests).toHaveLength(2);
  });

  it('retries a 500, then succeeds', async () => {
    server.push({ kind: 'json', status: 500, body: { error: { message: 'boom' } } }, 'recovered');
    expect((await model().generate({ messages: user })).text).toBe('recovered');
    expect(server.requests).toHaveLength(2);
  });

  it('gives up after maxRetries with the last status and the provider message', async () => {
    const busy = { kind: 'json' as const, status: 503, body: { error: { message: 'overloaded' } } };
    server.push(busy, busy, busy);
    const error = await failure(model({ maxRetries: 2 }).generate({ messages: user }));
    expect(server.requests).toHaveLength(3);
    expect(error).toMatchObject({
      status: 503,
      retryable: true,
      providerMessage: 'overloaded',
      provider: 'openai-compatible',
    });
    expect(error.message).toMatch(/gave up after 3 attempts/);
  });

  it('does not retry a 400', async () => {
    server.push({ kind: 'json', status: 400, body: { error: { message: "Invalid 'messages'" } } }, 'unused');
    const error = await failure(model().generate({ messages: user }));
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({ code: 'model_http', status: 400, retryable: false });
    expect(error.providerMessage).toBe("Invalid 'messages'");
  });

  it('times out a server that never answers, retrying once', async () => {
    server.push({ kind: 'hang' }, { kind: 'hang' });
    const started = Date.now();
    const error = await failure(model({ timeoutMs: 100, maxRetries: 1 }).generate({ messages: user }));
    expect(error.code).toBe('model_timeout');
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('times out a stream that stalls after its first chunk', async () => {
    server.push({ kind: 'stream', pieces: openaiStreamPieces({ text: 'abc' }).slice(0, 2), hang: true });
    const error = await failure(collect(model({ timeoutMs: 150 }).stream({ messages: user })));
    expect(error.code).toBe('model_timeout');
  });

  it('stops a stream at once when aborted mid-stream', async () => {
    server.push({ kind: 'stream', pieces: openaiStreamPieces({ text: 'first pieces' }).slice(0, 3), hang: true });
    const controller = new AbortController();
    const seen: string[] = [];
    const started = Date.now();
    const error = await failure(
      (async () => {
        for await (const chunk of model().stream({ messages: user, signal: controller.signal })) {
          if (chunk.type === 'text_delta') seen.push(chunk.text);
          if (seen.length === 2) controller.abort();
        }
      })(),
    );
    expect(seen.join('')).toBe('first pi');
    expect(error.code).toBe('model_aborted');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('openaiCompatible: a server that ignores stream: true', () => {
  it('serves its whole JSON answer as chunks ending with the response', async () => {
    server.push({ kind: 'json', body: fixture('llamacpp-tool-call-object-args.json') });
    const chunks = await collect(model().stream({ messages: user }));
    expect(chunks.map((c) => c.type)).toEqual(['tool_call_delta', 'response']);
    const last = chunks.at(-1);
    expect(last?.type === 'response' && last.response.toolCalls?.[0].arguments).toBe('{"city":"Berlin"}');
  });
});
