import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { anthropic, type ModelChunk } from '../../../src/index.js';
import { runModelContract } from '../model.contract.js';
import { anthropicStreamPieces, startAnthropicServer } from './anthropic-server.js';
import { runHttpResilience } from './http-resilience.cases.js';

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'anthropic', name), 'utf8');
const server = await startAnthropicServer();
afterAll(() => server.close());
beforeEach(() => server.reset());
const model = () =>
  anthropic({ apiKey: 'sk-ant-test', model: 'claude-test-1', baseURL: `${server.url}/v1`, maxRetries: 0 });

async function collect(stream: AsyncIterable<ModelChunk>): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('anthropic', () => {
  it('sends the system prompt top-level, tool_use/tool_result blocks, tools and its headers, with cache breakpoints', async () => {
    server.push('done');
    await model().generate({
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'weather in Oslo and Rome?' },
        {
          role: 'assistant',
          content: 'Checking.',
          toolCalls: [
            { id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
            { id: 'toolu_2', name: 'get_weather', arguments: '{"city":"Rome"}' },
          ],
        },
        { role: 'tool', toolCallId: 'toolu_1', content: 'cold' },
        { role: 'tool', toolCallId: 'toolu_2', content: 'warm' },
        { role: 'user', content: 'and tomorrow?' },
      ],
      tools: [{ name: 'get_weather', description: 'weather', parameters: { type: 'object' } }],
      stop: ['\nObservation:'],
    });
    const [request] = server.requests;
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe('sk-ant-test');
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toMatchObject({
      model: 'claude-test-1',
      max_tokens: 4096,
      system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
      stop_sequences: ['\nObservation:'],
      tools: [
        {
          name: 'get_weather',
          description: 'weather',
          input_schema: { type: 'object' },
          cache_control: { type: 'ephemeral' },
        },
      ],
    });
    expect(request.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'weather in Oslo and Rome?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
          { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Rome' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'cold' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'warm' },
          { type: 'text', text: 'and tomorrow?', cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);
  });

  it('reads a recorded tool_use reply, skipping thinking blocks', async () => {
    server.push({ kind: 'json', body: fixture('message-tool-use.json') });
    const response = await model().generate({ messages: [{ role: 'user', content: 'weather?' }] });
    expect(response).toMatchObject({
      text: "I'll check the weather in San Francisco.",
      toolCalls: [
        {
          id: 'toolu_01A09q90qw90lq917835lq9',
          name: 'get_weather',
          arguments: '{"location":"San Francisco, CA","unit":"celsius"}',
        },
      ],
      finishReason: 'tool_calls',
      usage: { promptTokens: 472, completionTokens: 89 },
      modelId: 'anthropic:claude-test-1',
    });
  });

  it('assembles input_json_delta fragments from a recorded stream', async () => {
    server.push({ kind: 'stream', pieces: [fixture('stream-tool-use.sse')] });
    const chunks = await collect(model().stream({ messages: [{ role: 'user', content: 'weather?' }] }));
    const last = chunks.at(-1);
    expect(last?.type === 'response' && last.response).toMatchObject({
      text: "Okay, let's check the weather for San Francisco, CA:",
      toolCalls: [
        {
          id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
          name: 'get_weather',
          arguments: '{"location": "San Francisco, CA", "unit": "fahrenheit"}',
        },
      ],
      finishReason: 'tool_calls',
      usage: { promptTokens: 472, completionTokens: 89 },
    });
  });

  it('reports an overloaded error event sent mid-stream', async () => {
    server.push({ kind: 'stream', pieces: [fixture('stream-overloaded-error.sse')] });
    const error = await collect(model().stream({ messages: [] })).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ModelError', providerMessage: 'Overloaded', retryable: true });
  });

  it('serves a stream the official @anthropic-ai/sdk reads into the same message', async () => {
    const reply = {
      text: 'Let me look.',
      toolCalls: [{ id: 'toolu_9', name: 'search', arguments: '{"query":"zod 4","limit":3}' }],
      usage: { promptTokens: 20, completionTokens: 9 },
    };
    server.push(reply, reply);
    const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, maxRetries: 0 });
    const official = await client.messages
      .stream({ model: 'claude-test-1', max_tokens: 100, messages: [{ role: 'user', content: 'x' }] })
      .finalMessage();
    const last = (await collect(model().stream({ messages: [{ role: 'user', content: 'x' }] }))).at(-1);
    if (last?.type !== 'response') throw new Error('no response chunk');
    const text = official.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
    const calls = official.content.flatMap((b) =>
      b.type === 'tool_use' ? [{ id: b.id, name: b.name, input: b.input }] : [],
    );
    expect(text).toBe(last.response.text);
    expect(calls).toEqual(
      last.response.toolCalls?.map((c) => ({ id: c.id, name: c.name, input: JSON.parse(c.arguments) })),
    );
    expect(official.usage.output_tokens).toBe(last.response.usage?.completionTokens);
  });
});

runModelContract({
  name: 'anthropic',
  createModel({ replies, hang }) {
    server.push(...(hang ? [{ kind: 'hang' as const }] : replies));
    return model();
  },
});

runHttpResilience({
  name: 'anthropic',
  start: startAnthropicServer,
  createModel: (s, options) => anthropic({ ...options, model: 'claude-test-1', baseURL: `${s.url}/v1` }),
  errorBody: (message) => ({ type: 'error', error: { type: 'invalid_request_error', message } }),
  streamStart: (text) => anthropicStreamPieces({ text }, { size: 3 }).slice(0, 6),
  brokenLine: 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_del\n\n',
});
