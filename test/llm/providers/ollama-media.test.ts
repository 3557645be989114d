import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type ModelChunk, ollama } from '../../../src/index.js';
import { startOllamaServer } from './ollama-server.js';

const server = await startOllamaServer();
afterAll(() => server.close());
beforeEach(() => server.reset());
const model = (options: { think?: boolean } = {}) =>
  ollama({ model: 'qwen3:8b', host: server.url, maxRetries: 0, ...options });
const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'ollama', name), 'utf8');
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

async function collect(stream: AsyncIterable<ModelChunk>): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('ollama: images, thinking, structured output', () => {
  it('sends base64 images (and data URLs) in the message images', async () => {
    server.push('a pixel');
    await model().generate({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what?' },
            { type: 'image', data: PNG, mediaType: 'image/png' },
            { type: 'image', url: `data:image/png;base64,${PNG}` },
          ],
        },
      ],
    });
    const [message] = server.requests[0].body.messages as Record<string, unknown>[];
    expect(message).toEqual({ role: 'user', content: 'what?', images: [PNG, PNG] });
  });

  it('refuses an image URL it cannot fetch, saying how to send it', async () => {
    const error = await model()
      .generate({ messages: [{ role: 'user', content: [{ type: 'image', url: 'https://example.com/a.png' }] }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'ConfigError',
      message: expect.stringContaining("{ type: 'image', data, mediaType }"),
    });
  });

  it('keeps recorded thinking as reasoning and streams it as reasoning deltas', async () => {
    server.push({
      kind: 'stream',
      contentType: 'application/x-ndjson',
      pieces: [fixture('stream-thinking-tool-call.ndjson')],
    });
    const chunks = await collect(model({ think: true }).stream({ messages: [{ role: 'user', content: '12+30' }] }));
    expect(server.requests[0].body.think).toBe(true);
    expect(chunks.filter((c) => c.type === 'reasoning_delta')).toEqual([
      { type: 'reasoning_delta', text: 'The user wants a sum.' },
    ]);
    const last = chunks.at(-1);
    expect(last?.type === 'response' && last.response.reasoning).toEqual([
      { type: 'reasoning', text: 'The user wants a sum.', provider: 'ollama' },
    ]);
  });

  it('sends the response schema as format', async () => {
    server.push('{"n":1}');
    const schema = { type: 'object', properties: { n: { type: 'number' } } };
    await model().generate({
      messages: [{ role: 'user', content: 'n?' }],
      responseFormat: { name: 'final_answer', schema },
    });
    expect(server.requests[0].body.format).toEqual(schema);
  });
});
