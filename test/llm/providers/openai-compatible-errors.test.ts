import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type ModelChunk, type ModelError, openaiCompatible } from '../../../src/index.js';
import { openaiStreamPieces, startOpenAIServer } from './openai-server.js';

const API_KEY = 'sk-proj-NEVER-SHOW-ME-9f8e7d6c5b4a';
const server = await startOpenAIServer();
afterAll(() => server.close());
beforeEach(() => server.reset());

const model = (baseURL = `${server.url}/v1`) =>
  openaiCompatible({ baseURL, apiKey: API_KEY, model: 'gpt-4o-mini', maxRetries: 0, timeoutMs: 10_000 });
const user = [{ role: 'user' as const, content: 'hi' }];

async function drain(stream: AsyncIterable<ModelChunk>): Promise<void> {
  for await (const _ of stream);
}

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (error) {
    return error as ModelError;
  }
  throw new Error('expected the call to fail');
}

function expectNoKey(error: ModelError) {
  for (const text of [
    error.message,
    String(error),
    JSON.stringify(error),
    error.providerMessage ?? '',
    error.stack ?? '',
  ]) {
    expect(text).not.toContain(API_KEY);
  }
}

describe('openaiCompatible: unreadable answers', () => {
  it('turns a malformed JSON body into a model_parse error', async () => {
    server.push({ kind: 'json', body: '{"id":"chatcmpl-1","choices":[{"message":{"content":"cut off' });
    const error = await failure(model().generate({ messages: user }));
    expect(error).toMatchObject({ name: 'ModelError', code: 'model_parse', retryable: false });
    expect(error.message).toMatch(/not JSON/);
  });

  it('turns a JSON body of the wrong shape into a model_parse error', async () => {
    server.push({ kind: 'json', body: { object: 'list', data: [] } });
    const error = await failure(model().generate({ messages: user }));
    expect(error.code).toBe('model_parse');
    expect(error.message).toMatch(/choices/);
  });

  it('turns a broken SSE line into a model_parse error without waiting for the stream to end', async () => {
    const good = openaiStreamPieces({ text: 'hello' });
    server.push({
      kind: 'stream',
      pieces: [good[0], good[1], 'data: {"choices":[{"delta":{"content":"oops\n\n'],
      hang: true,
    });
    const started = Date.now();
    const error = await failure(drain(model().stream({ messages: user })));
    expect(error.code).toBe('model_parse');
    expect(error.message).toMatch(/stream line that is not JSON/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('reports an error event sent mid-stream with the provider message', async () => {
    const good = openaiStreamPieces({ text: 'hello' });
    server.push({
      kind: 'stream',
      pieces: [good[0], 'data: {"error":{"message":"The server had an error while processing your request."}}\n\n'],
    });
    const error = await failure(drain(model().stream({ messages: user })));
    expect(error.providerMessage).toBe('The server had an error while processing your request.');
  });
});

describe('openaiCompatible: secrets', () => {
  it('never shows the API key, even when the provider echoes it', async () => {
    server.push({
      kind: 'json',
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${API_KEY}.`, type: 'invalid_request_error' } },
    });
    const error = await failure(model().generate({ messages: user }));
    expect(error).toMatchObject({ status: 401, retryable: false });
    expect(error.providerMessage).toBe('Incorrect API key provided: [redacted].');
    expect(error.message).toMatch(/Check the API key/);
    expectNoKey(error);
  });

  it('redacts other credentials a provider echoes (a key of another shape, a URL with a password)', async () => {
    const other = `gsk_${'Zz9'.repeat(18)}`;
    server.push({
      kind: 'json',
      status: 400,
      body: { error: { message: `Upstream https://bot:hunter2@proxy.internal/v1 refused key ${other}` } },
    });
    const error = await failure(model().generate({ messages: user }));
    expect(error.providerMessage).toBe('Upstream https://bot:[redacted]@proxy.internal/v1 refused key [redacted]');
    expect(error.message).not.toMatch(/hunter2|gsk_/);
  });

  it('never shows the API key in a network error', async () => {
    const closed = await startOpenAIServer();
    const url = closed.url;
    await closed.close();
    const error = await failure(model(`${url}/v1`).generate({ messages: user }));
    expect(error).toMatchObject({ code: 'model_network', retryable: true });
    expectNoKey(error);
  });

  it('never shows the API key in a streamed error event', async () => {
    server.push({ kind: 'stream', pieces: [`data: {"error":{"message":"bad key ${API_KEY}"}}\n\n`] });
    const error = await failure(drain(model().stream({ messages: user })));
    expectNoKey(error);
  });
});
