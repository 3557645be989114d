import OpenAI from 'openai';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, defineTool, type ModelChunk, openaiResponses, resolveModel } from '../../../src/index.js';
import { runModelContract } from '../model.contract.js';
import { runHttpResilience } from './http-resilience.cases.js';
import { responsesStreamPieces, startResponsesServer } from './responses-server.js';

const server = await startResponsesServer();
afterAll(() => server.close());
beforeEach(() => server.reset());
const model = (options: { reasoningEffort?: 'low' } = {}) =>
  openaiResponses({ apiKey: 'sk-test', model: 'gpt-5-mini', baseURL: `${server.url}/v1`, maxRetries: 0, ...options });
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

async function collect(stream: AsyncIterable<ModelChunk>): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const reasoning = [
  { type: 'reasoning' as const, text: 'Need the weather first.', id: 'rs_1', encrypted: 'gAAAAABencrypted==' },
];

describe('openaiResponses', () => {
  it('posts input items, flat function tools, store false with encrypted reasoning, and reasoning effort', async () => {
    server.push('ok');
    await model({ reasoningEffort: 'low' }).generate({
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what?' },
            { type: 'image', data: PNG, mediaType: 'image/png' },
          ],
        },
      ],
      tools: [{ name: 'get_weather', description: 'weather', parameters: { type: 'object' } }],
      maxTokens: 200,
    });
    const [request] = server.requests;
    expect(request.path).toBe('/v1/responses');
    expect(request.headers.authorization).toBe('Bearer sk-test');
    expect(request.body).toEqual({
      model: 'gpt-5-mini',
      store: false,
      include: ['reasoning.encrypted_content'],
      input: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'what?' },
            { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
          ],
        },
      ],
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'weather',
          parameters: { type: 'object' },
          strict: false,
        },
      ],
      max_output_tokens: 200,
      reasoning: { effort: 'low' },
    });
  });

  it('streams text, reasoning summaries and function calls, then reads the completed response', async () => {
    server.push({
      text: 'Looking.',
      reasoning,
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Lima"}' }],
      usage: { promptTokens: 120, completionTokens: 80, cacheReadTokens: 64, reasoningTokens: 50 },
    });
    const chunks = await collect(model().stream({ messages: [{ role: 'user', content: 'weather in Lima' }] }));
    expect(chunks.flatMap((c) => (c.type === 'reasoning_delta' ? [c.text] : [])).join('')).toBe(
      'Need the weather first.',
    );
    expect(chunks.flatMap((c) => (c.type === 'tool_call_delta' ? [c.argumentsDelta] : [])).join('')).toBe(
      '{"city":"Lima"}',
    );
    const last = chunks.at(-1);
    if (last?.type !== 'response') throw new Error('no response chunk');
    expect(last.response).toMatchObject({
      text: 'Looking.',
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Lima"}' }],
      finishReason: 'tool_calls',
      reasoning: [
        {
          type: 'reasoning',
          text: 'Need the weather first.',
          provider: 'openai-responses',
          id: 'rs_1',
          encrypted: 'gAAAAABencrypted==',
        },
      ],
      usage: { promptTokens: 120, completionTokens: 80, cacheReadTokens: 64, reasoningTokens: 50 },
    });
  });

  it('carries reasoning items across turns, before the function call they led to', async () => {
    const weather = defineTool({
      name: 'get_weather',
      description: 'weather',
      input: z.object({ city: z.string() }),
      run: () => 'sunny',
    });
    server.push(
      { text: '', reasoning, toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Lima"}' }] },
      'Sunny.',
    );
    const result = await new Agent({ model: model(), tools: [weather] }).run('weather in Lima?');
    expect(result.output).toBe('Sunny.');
    const input = server.requests[1].body.input as Record<string, unknown>[];
    expect(input.slice(-3)).toEqual([
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'Need the weather first.' }],
        encrypted_content: 'gAAAAABencrypted==',
      },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Lima"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
    ]);
  });

  it('asks for text.format json_schema for structured output', async () => {
    server.push('{"n":1}');
    const result = await new Agent({ model: model(), outputSchema: z.object({ n: z.number() }) }).run('n?');
    expect(result.object).toEqual({ n: 1 });
    expect(server.requests[0].body.text).toMatchObject({
      format: { type: 'json_schema', name: 'final_answer', strict: false },
    });
  });

  it('reports an error event sent mid-stream', async () => {
    server.push({
      kind: 'stream',
      pieces: [
        'event: error\ndata: {"type":"error","code":"server_error","message":"The server had an error while processing your request.","sequence_number":1}\n\n',
      ],
    });
    const error = await collect(model().stream({ messages: [{ role: 'user', content: 'x' }] })).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      name: 'ModelError',
      retryable: true,
      providerMessage: expect.stringContaining('server had an error'),
    });
  });

  it('serves streams the official openai client reads into the same output', async () => {
    const reply = {
      text: 'Let me check.',
      reasoning,
      toolCalls: [{ id: 'call_7', name: 'search', arguments: '{"q":"zod"}' }],
      usage: { promptTokens: 40, completionTokens: 20, cacheReadTokens: 8, reasoningTokens: 6 },
    };
    server.push(reply, reply);
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    const official = await client.responses.stream({ model: 'gpt-5-mini', input: 'x' }).finalResponse();
    const last = (await collect(model().stream({ messages: [{ role: 'user', content: 'x' }] }))).at(-1);
    if (last?.type !== 'response') throw new Error('no response chunk');
    const text = official.output
      .flatMap((item) => (item.type === 'message' ? item.content : []))
      .map((part) => (part.type === 'output_text' ? part.text : ''))
      .join('');
    expect(text).toBe(last.response.text);
    const calls = official.output.flatMap((item) =>
      item.type === 'function_call' ? [{ id: item.call_id, name: item.name, arguments: item.arguments }] : [],
    );
    expect(calls).toEqual(last.response.toolCalls);
    expect(official.usage?.input_tokens_details.cached_tokens).toBe(last.response.usage?.cacheReadTokens);
    expect(official.usage?.output_tokens_details.reasoning_tokens).toBe(last.response.usage?.reasoningTokens);
  });

  it('resolves openai-responses:MODEL', () => {
    expect(resolveModel('openai-responses:gpt-5-mini', { OPENAI_API_KEY: 'k' }).id).toBe('openai-responses:gpt-5-mini');
    expect(() => resolveModel('openai-responses:gpt-5-mini', {})).toThrow(/OPENAI_API_KEY/);
  });
});

runModelContract({
  name: 'openaiResponses',
  createModel({ replies, hang }) {
    server.push(...(hang ? [{ kind: 'hang' as const }] : replies));
    return model();
  },
});

runHttpResilience({
  name: 'openaiResponses',
  start: startResponsesServer,
  createModel: (s, options) => openaiResponses({ ...options, model: 'gpt-5-mini', baseURL: `${s.url}/v1` }),
  errorBody: (message) => ({ error: { message, type: 'invalid_request_error', param: null, code: null } }),
  streamStart: (text) => responsesStreamPieces({ text }, { size: 3 }).slice(0, 5),
  brokenLine: 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"ab\n\n',
});
