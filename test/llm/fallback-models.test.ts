import { afterAll, describe, expect, it } from 'vitest';
import {
  fallbackModels,
  isModelError,
  type Model,
  type ModelChunk,
  ModelError,
  openaiCompatible,
  scriptedModel,
} from '../../src/index.js';
import { runModelContract } from './model.contract.js';
import { startOpenAIServer } from './providers/openai-server.js';

const failing = (id: string, retryable = false) =>
  scriptedModel(
    () => {
      throw new ModelError({ message: `${id} is down`, provider: id, status: 503, retryable });
    },
    { id },
  );

async function collect(stream: AsyncIterable<ModelChunk>): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('fallbackModels', () => {
  it('answers from the first model that works and records which one', async () => {
    const seen: string[] = [];
    const model = fallbackModels([failing('primary'), scriptedModel(['from backup'], { id: 'backup' })], {
      onFallback: ({ from, to }) => seen.push(`${from}->${to}`),
    });
    const response = await model.generate({ messages: [] });
    expect(response).toMatchObject({ text: 'from backup', modelId: 'backup' });
    expect(seen).toEqual(['primary->backup']);
  });

  it('uses the primary when it works, without touching the backup', async () => {
    const backup = scriptedModel(['unused'], { id: 'backup' });
    const model = fallbackModels([scriptedModel(['primary answer'], { id: 'primary' }), backup]);
    expect((await model.generate({ messages: [] })).modelId).toBe('primary');
    expect(backup.calls).toHaveLength(0);
  });

  it('fails with every model named when all fail', async () => {
    const model = fallbackModels([failing('a'), failing('b', true)]);
    const error = await model.generate({ messages: [] }).catch((e: unknown) => e);
    expect(isModelError(error)).toBe(true);
    expect((error as Error).message).toMatch(/a: a is down; b: b is down/);
    expect((error as ModelError).status).toBe(503);
  });

  it('does not fall through on abort', async () => {
    const backup = scriptedModel(['unused'], { id: 'backup' });
    const model = fallbackModels([scriptedModel(['slow'], { id: 'slow', delayMs: 10_000 }), backup]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(model.generate({ messages: [], signal: controller.signal })).rejects.toMatchObject({
      code: 'model_aborted',
    });
    expect(backup.calls).toHaveLength(0);
  });

  it('falls back for a stream that fails before its first chunk', async () => {
    const model = fallbackModels([failing('primary'), scriptedModel(['streamed backup'], { id: 'backup' })]);
    const last = (await collect(model.stream({ messages: [] }))).at(-1);
    expect(last?.type === 'response' && last.response).toMatchObject({ text: 'streamed backup', modelId: 'backup' });
  });

  it('advertises only what every model can do', () => {
    const plain: Model = { ...scriptedModel(['x']), capabilities: { nativeTools: false, streaming: true } };
    expect(fallbackModels([scriptedModel(['x']), plain]).capabilities.nativeTools).toBe(false);
  });
});

describe('fallbackModels over HTTP', async () => {
  const server = await startOpenAIServer();
  afterAll(() => server.close());

  it('moves on when the primary exhausts its retries on 503, and on a 400 at once', async () => {
    const http = (name: string) =>
      openaiCompatible({ baseURL: `${server.url}/v1`, model: name, maxRetries: 1, retry: { baseDelayMs: 1 } });
    server.push(
      { kind: 'json', status: 503, body: { error: { message: 'busy' } } },
      { kind: 'json', status: 503, body: { error: { message: 'busy' } } },
      { kind: 'json', status: 400, body: { error: { message: 'unknown model' } } },
      'third time lucky',
    );
    const response = await fallbackModels([http('a'), http('b'), http('c')]).generate({ messages: [] });
    expect(response).toMatchObject({ text: 'third time lucky', modelId: 'openai-compatible:c' });
    expect(server.requests.map((r) => r.body.model)).toEqual(['a', 'a', 'b', 'c']);
  });
});

runModelContract({
  name: 'fallbackModels',
  expectsUsage: false,
  createModel: ({ replies, hang }) =>
    fallbackModels([failing('down'), scriptedModel(replies, hang ? { delayMs: 60_000 } : {})]),
});
