import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ollamaEmbeddings, openaiEmbeddings } from '../../src/memory/index.js';
import { type EmbeddingServer, startEmbeddingServer, toyEmbedding } from './embedding-server.js';

let server: EmbeddingServer;
beforeAll(async () => {
  server = await startEmbeddingServer();
});
afterAll(async () => {
  await server.close();
});

describe('openaiEmbeddings', () => {
  it('posts the inputs to /embeddings with the key and returns vectors in input order', async () => {
    const embed = openaiEmbeddings({
      baseURL: `${server.url}/v1/`,
      apiKey: 'sk-secret',
      model: 'text-embedding-3-small',
    });
    const vectors = await embed.embed(['red car', 'happy doctor']);
    expect(vectors).toEqual([toyEmbedding('red car'), toyEmbedding('happy doctor')]);
    const request = server.requests.at(-1)!;
    expect(request.path).toBe('/v1/embeddings');
    expect(request.body).toMatchObject({ model: 'text-embedding-3-small', input: ['red car', 'happy doctor'] });
    expect(request.authorization).toBe('Bearer sk-secret');
    expect(embed.id).toBe('openai:text-embedding-3-small');
    expect(await embed.embed([])).toEqual([]);
  });

  it('turns an HTTP error into a ModelError without the API key', async () => {
    const embed = openaiEmbeddings({ baseURL: `${server.url}/v1`, apiKey: 'sk-secret', model: 'm' });
    server.failNext(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
    const error = await embed.embed(['x']).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ModelError', status: 401, retryable: false });
    expect((error as Error).message).toContain('Incorrect API key provided');
    expect(JSON.stringify(error) + (error as Error).message).not.toContain('sk-secret');
    server.failNext(503, { error: { message: 'overloaded' } });
    await expect(embed.embed(['x'])).rejects.toMatchObject({ status: 503, retryable: true });
  });

  it('rejects a reply with the wrong number of embeddings', async () => {
    server.failNext(200, { data: [] });
    const embed = openaiEmbeddings({ baseURL: `${server.url}/v1`, model: 'm' });
    await expect(embed.embed(['a', 'b'])).rejects.toMatchObject({ code: 'model_parse' });
  });

  it('names the URL when the server cannot be reached', async () => {
    const embed = openaiEmbeddings({ baseURL: 'http://127.0.0.1:9/v1', model: 'm' });
    await expect(embed.embed(['x'])).rejects.toMatchObject({
      code: 'model_network',
      message: expect.stringContaining('127.0.0.1:9'),
    });
  });
});

describe('ollamaEmbeddings', () => {
  it('posts to /api/embed and returns the embeddings', async () => {
    const embed = ollamaEmbeddings({ host: server.url, model: 'nomic-embed-text' });
    expect(await embed.embed(['glad medic'])).toEqual([toyEmbedding('glad medic')]);
    expect(server.requests.at(-1)).toMatchObject({
      path: '/api/embed',
      body: { model: 'nomic-embed-text', input: ['glad medic'] },
    });
    expect(embed.id).toBe('ollama:nomic-embed-text');
  });

  it("turns a missing model into a ModelError carrying Ollama's message", async () => {
    server.failNext(404, { error: 'model "nomic-embed-text" not found, try pulling it first' });
    const embed = ollamaEmbeddings({ host: server.url, model: 'nomic-embed-text' });
    await expect(embed.embed(['x'])).rejects.toMatchObject({
      name: 'ModelError',
      status: 404,
      message: expect.stringContaining('try pulling it first'),
    });
  });
});
