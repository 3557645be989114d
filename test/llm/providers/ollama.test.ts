import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type ModelChunk, ollama } from '../../../src/index.js';
import { runModelContract } from '../model.contract.js';
import { runHttpResilience } from './http-resilience.cases.js';
import { ollamaStreamPieces, startOllamaServer } from './ollama-server.js';

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'ollama', name), 'utf8');
const server = await startOllamaServer();
afterAll(() => server.close());
beforeEach(() => server.reset());
const model = () => ollama({ model: 'qwen2.5:7b', host: server.url.replace('http://', ''), maxRetries: 0 });

async function collect(stream: AsyncIterable<ModelChunk>): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('ollama', () => {
  it('posts /api/chat with object arguments, tool_name, tools, options and stream false', async () => {
    server.push('ok');
    await model().generate({
      messages: [
        { role: 'user', content: '2+2?' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression":"2+2"}' }],
        },
        { role: 'tool', toolCallId: 'c1', name: 'calculator', content: '4' },
      ],
      tools: [{ name: 'calculator', description: 'math', parameters: { type: 'object' } }],
      temperature: 0.2,
      maxTokens: 64,
      stop: ['Observation:'],
    });
    const [request] = server.requests;
    expect(request.path).toBe('/api/chat');
    expect(request.body).toEqual({
      model: 'qwen2.5:7b',
      stream: false,
      messages: [
        { role: 'user', content: '2+2?' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ function: { name: 'calculator', arguments: { expression: '2+2' } } }],
        },
        { role: 'tool', content: '4', tool_name: 'calculator' },
      ],
      tools: [
        { type: 'function', function: { name: 'calculator', description: 'math', parameters: { type: 'object' } } },
      ],
      options: { temperature: 0.2, num_predict: 64, stop: ['Observation:'] },
    });
  });

  it('reads recorded parallel tool calls without ids', async () => {
    server.push({ kind: 'json', body: fixture('chat-tool-calls.json') });
    const response = await model().generate({ messages: [{ role: 'user', content: 'weather in Paris and Toronto' }] });
    expect(response.toolCalls?.map((c) => [c.name, JSON.parse(c.arguments).location])).toEqual([
      ['get_current_weather', 'Paris, FR'],
      ['get_current_weather', 'Toronto, CA'],
    ]);
    expect(new Set(response.toolCalls?.map((c) => c.id)).size).toBe(2);
    expect(response).toMatchObject({ finishReason: 'tool_calls', usage: { promptTokens: 122, completionTokens: 33 } });
  });

  it('estimates the prompt count Ollama leaves out when the prompt was cached', async () => {
    server.push({
      kind: 'stream',
      contentType: 'application/x-ndjson',
      pieces: [fixture('stream-cached-prompt.ndjson')],
    });
    const last = (await collect(model().stream({ messages: [{ role: 'user', content: 'Why is the sky blue?' }] }))).at(
      -1,
    );
    if (last?.type !== 'response') throw new Error('no response chunk');
    expect(last.response.text).toBe('The sky is blue.');
    expect(last.response.usage).toMatchObject({ completionTokens: 5, estimated: true });
    expect(last.response.usage?.promptTokens).toBeGreaterThan(0);
  });

  it('streams a tool call and keeps thinking out of the text', async () => {
    server.push({
      kind: 'stream',
      contentType: 'application/x-ndjson',
      pieces: [fixture('stream-thinking-tool-call.ndjson')],
    });
    const chunks = await collect(model().stream({ messages: [{ role: 'user', content: '12+30' }] }));
    expect(chunks.filter((c) => c.type === 'text_delta')).toEqual([]);
    const last = chunks.at(-1);
    expect(last?.type === 'response' && last.response).toMatchObject({
      text: '',
      toolCalls: [{ id: 'call_k2j3', name: 'calculator', arguments: '{"expression":"12+30"}' }],
      usage: { promptTokens: 180, completionTokens: 41 },
      modelId: 'ollama:qwen2.5:7b',
    });
  });

  it('reports an error line sent mid-stream', async () => {
    server.push({
      kind: 'stream',
      pieces: ['{"error":"model requires more system memory (9.1 GiB) than is available"}\n'],
    });
    await expect(collect(model().stream({ messages: [] }))).rejects.toMatchObject({
      providerMessage: 'model requires more system memory (9.1 GiB) than is available',
    });
  });
});

runModelContract({
  name: 'ollama',
  createModel({ replies, hang }) {
    server.push(...(hang ? [{ kind: 'hang' as const }] : replies));
    return model();
  },
});

runHttpResilience({
  name: 'ollama',
  start: startOllamaServer,
  createModel: (s, { apiKey, ...options }) =>
    ollama({ ...options, model: 'qwen2.5:7b', host: s.url, headers: { authorization: `Bearer ${apiKey}` } }),
  errorBody: (message) => ({ error: message }),
  streamStart: (text) => ollamaStreamPieces({ text }, { size: 3 }).slice(0, 3),
  brokenLine: '{"model":"qwen2.5:7b","message":{"role":"assistant","content":"tr\n',
  contentType: 'application/x-ndjson',
});
