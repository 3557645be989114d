import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, defineTool, gemini, type ModelChunk, resolveModel } from '../../../src/index.js';
import { runModelContract } from '../model.contract.js';
import { geminiError, geminiStreamPieces, startGeminiServer } from './gemini-server.js';
import { runHttpResilience } from './http-resilience.cases.js';

const server = await startGeminiServer();
afterAll(() => server.close());
beforeEach(() => server.reset());
const model = () =>
  gemini({ apiKey: 'g-key-test', model: 'gemini-2.5-flash', baseURL: `${server.url}/v1beta`, maxRetries: 0 });
const recorded = (name: string) =>
  readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'gemini', name), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => `data: ${line}\r\n\r\n`);
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

async function collect(stream: AsyncIterable<ModelChunk>): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('gemini', () => {
  it('posts generateContent with the key header, system instruction, contents and converted declarations', async () => {
    server.push('ok');
    await model().generate({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
        },
        { role: 'tool', toolCallId: 'c1', content: 'cold' },
      ],
      tools: [
        {
          name: 'get_weather',
          description: 'Weather for a city',
          parameters: {
            $schema: 'https://json-schema.org/draft/2020-12/schema',
            type: 'object',
            properties: {
              city: { type: 'string', minLength: 1 },
              unit: { anyOf: [{ type: 'string', enum: ['c', 'f'] }, { type: 'null' }], default: 'c' },
              days: { type: ['integer', 'null'], format: 'int32' },
              mode: { const: 'fast' },
            },
            required: ['city'],
            additionalProperties: false,
          },
        },
        { name: 'now', description: 'The time', parameters: { type: 'object', properties: {} } },
      ],
      temperature: 0,
      maxTokens: 100,
    });
    const [request] = server.requests;
    expect(request.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(request.headers['x-goog-api-key']).toBe('g-key-test');
    expect(request.body).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'weather?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { result: 'cold' } } }] },
      ],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_weather',
              description: 'Weather for a city',
              parameters: {
                type: 'object',
                properties: {
                  city: { type: 'string', minLength: 1 },
                  unit: { type: 'string', enum: ['c', 'f'], nullable: true },
                  days: { type: 'integer', format: 'int32', nullable: true },
                  mode: { type: 'string', enum: ['fast'] },
                },
                required: ['city'],
              },
            },
            { name: 'now', description: 'The time' },
          ],
        },
      ],
      generationConfig: { temperature: 0, maxOutputTokens: 100 },
    });
  });

  it('streams from streamGenerateContent?alt=sse with function calls and usage', async () => {
    server.push({
      text: 'Checking both.',
      toolCalls: [
        { id: 'x', name: 'a', arguments: '{"q":1}' },
        { id: 'y', name: 'b', arguments: '{}' },
      ],
      usage: { promptTokens: 50, completionTokens: 30, reasoningTokens: 12, cacheReadTokens: 32 },
    });
    const chunks = await collect(model().stream({ messages: [{ role: 'user', content: 'go' }] }));
    expect(server.requests[0].path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(chunks.filter((c) => c.type === 'text_delta').length).toBeGreaterThan(1);
    const last = chunks.at(-1);
    if (last?.type !== 'response') throw new Error('no response chunk');
    expect(last.response).toMatchObject({
      text: 'Checking both.',
      finishReason: 'tool_calls',
      usage: { promptTokens: 50, completionTokens: 30, reasoningTokens: 12, cacheReadTokens: 32 },
      modelId: 'gemini:gemini-2.5-flash',
    });
    expect(last.response.toolCalls?.map((c) => [c.name, c.arguments])).toEqual([
      ['a', '{"q":1}'],
      ['b', '{}'],
    ]);
  });

  it('reads a recorded Gemini 3 reasoning stream: thinking counted in the completion, signature kept', async () => {
    server.push({ kind: 'stream', pieces: recorded('reasoning.chunks.txt') });
    const last = (await collect(model().stream({ messages: [{ role: 'user', content: 'r in strawberry?' }] }))).at(-1);
    if (last?.type !== 'response') throw new Error('no response chunk');
    expect(last.response.text).toBe(
      'There are **3** "r"s in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.',
    );
    expect(last.response.usage).toEqual({ promptTokens: 9, completionTokens: 29 + 256, reasoningTokens: 256 });
    expect(last.response.reasoning).toEqual([
      { type: 'reasoning', text: '', provider: 'gemini', signature: expect.stringMatching(/^Eo0HCooHAb4/), id: 'text' },
    ]);
  });

  it('sends thought signatures back on the parts they came with', async () => {
    server.push({
      text: '',
      toolCalls: [{ id: 'c9', name: 'lookup', arguments: '{"q":"x"}' }],
      reasoning: [
        { type: 'reasoning', text: 'I will look it up.' },
        { type: 'reasoning', text: '', signature: 'sig-call', id: 'call:c9' },
      ],
    });
    const first = await gemini({
      apiKey: 'k',
      model: 'gemini-3-pro-preview',
      baseURL: `${server.url}/v1beta`,
      thinking: { includeThoughts: true },
    }).generate({ messages: [{ role: 'user', content: 'find x' }] });
    expect(server.requests[0].body.generationConfig).toEqual({ thinkingConfig: { includeThoughts: true } });
    expect(first.reasoning?.[0]).toEqual({ type: 'reasoning', text: 'I will look it up.', provider: 'gemini' });
    const call = first.toolCalls?.[0];
    if (!call) throw new Error('no call');
    server.push('x is 1');
    await model().generate({
      messages: [
        { role: 'user', content: 'find x' },
        { role: 'assistant', content: '', toolCalls: first.toolCalls, reasoning: first.reasoning },
        { role: 'tool', toolCallId: call.id, name: 'lookup', content: 'x is 1' },
      ],
    });
    const contents = server.requests[1].body.contents as { parts: unknown[] }[];
    expect(contents[1].parts).toEqual([
      { functionCall: { name: 'lookup', args: { q: 'x' } }, thoughtSignature: 'sig-call' },
    ]);
  });

  it('sends images as inline data and URLs as file data', async () => {
    server.push('a pixel');
    await model().generate({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what?' },
            { type: 'image', data: PNG, mediaType: 'image/png' },
            { type: 'image', url: 'https://example.com/a.jpg' },
            { type: 'file', data: 'JVBERi0xLjQK', mediaType: 'application/pdf' },
          ],
        },
      ],
    });
    const contents = server.requests[0].body.contents as { parts: unknown[] }[];
    expect(contents[0].parts).toEqual([
      { text: 'what?' },
      { inlineData: { mimeType: 'image/png', data: PNG } },
      { fileData: { fileUri: 'https://example.com/a.jpg' } },
      { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0xLjQK' } },
    ]);
  });

  it('asks for JSON with a responseSchema for structured output', async () => {
    server.push('{"city":"Lima"}');
    const agent = new Agent({ model: model(), outputSchema: z.object({ city: z.string() }) });
    const result = await agent.run('where?');
    expect(result.object).toEqual({ city: 'Lima' });
    expect(server.requests[0].body.generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    });
  });

  it('runs an agent with tools through function calls and responses', async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: 'Looks up',
      input: z.object({ q: z.string() }),
      run: ({ q }) => `${q}=1`,
    });
    server.push({ text: '', toolCalls: [{ id: 'g1', name: 'lookup', arguments: '{"q":"x"}' }] }, 'x is 1');
    const result = await new Agent({ model: model(), tools: [lookup] }).run('find x');
    expect(result.output).toBe('x is 1');
    const contents = server.requests[1].body.contents as { role: string; parts: unknown[] }[];
    expect(contents.at(-1)).toEqual({
      role: 'user',
      parts: [{ functionResponse: { name: 'lookup', response: { result: 'x=1' } } }],
    });
  });

  it('resolves gemini:MODEL from GEMINI_API_KEY or GOOGLE_API_KEY, and says what to set without one', () => {
    expect(resolveModel('gemini:gemini-2.5-flash', { GEMINI_API_KEY: 'k' }).id).toBe('gemini:gemini-2.5-flash');
    expect(resolveModel('gemini:gemini-2.5-pro', { GOOGLE_API_KEY: 'k' }).id).toBe('gemini:gemini-2.5-pro');
    expect(() => resolveModel('gemini:gemini-2.5-flash', {})).toThrow(/GEMINI_API_KEY/);
  });
});

runModelContract({
  name: 'gemini',
  createModel({ replies, hang }) {
    server.push(...(hang ? [{ kind: 'hang' as const }] : replies));
    return model();
  },
});

runHttpResilience({
  name: 'gemini',
  start: startGeminiServer,
  createModel: (s, options) => gemini({ ...options, model: 'gemini-2.5-flash', baseURL: `${s.url}/v1beta` }),
  errorBody: (message) => geminiError(400, 'INVALID_ARGUMENT', message),
  streamStart: (text) => geminiStreamPieces({ text }, { size: 3 }).slice(0, 2),
  brokenLine: 'data: {"candidates":[{"content":{"parts":[{"text":"ab\r\n\r\n',
});
