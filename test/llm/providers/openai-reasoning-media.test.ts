import OpenAI from 'openai';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type ModelChunk, openaiCompatible } from '../../../src/index.js';
import { startOpenAIServer } from './openai-server.js';

const server = await startOpenAIServer();
afterAll(() => server.close());
beforeEach(() => server.reset());
const model = (options: { reasoningEffort?: 'low' | 'high' } = {}) =>
  openaiCompatible({ baseURL: `${server.url}/v1`, model: 'gpt-test', maxRetries: 0, ...options });
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

async function collect(stream: AsyncIterable<ModelChunk>): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const completion = (usage: Record<string, unknown>, message: Record<string, unknown> = { content: 'ok' }) => ({
  kind: 'json' as const,
  body: { choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }], usage },
});

describe('openaiCompatible: reasoning and cached tokens', () => {
  it('keeps reasoning_content (DeepSeek) and reasoning (OpenRouter, vLLM) as reasoning', async () => {
    server.push(
      completion({ prompt_tokens: 1, completion_tokens: 1 }, { content: '391', reasoning_content: '17 * 23...' }),
      completion({ prompt_tokens: 1, completion_tokens: 1 }, { content: 'yes', reasoning: 'checking' }),
    );
    expect((await model().generate({ messages: [{ role: 'user', content: 'q' }] })).reasoning).toEqual([
      { type: 'reasoning', text: '17 * 23...', provider: 'openai-compatible' },
    ]);
    expect((await model().generate({ messages: [{ role: 'user', content: 'q' }] })).reasoning?.[0].text).toBe(
      'checking',
    );
  });

  it('streams reasoning_content as reasoning deltas, never in the text', async () => {
    server.push({ text: 'Answer', reasoning: [{ type: 'reasoning', text: 'think think' }] });
    const chunks = await collect(model().stream({ messages: [{ role: 'user', content: 'q' }] }));
    expect(chunks.flatMap((c) => (c.type === 'reasoning_delta' ? [c.text] : [])).join('')).toBe('think think');
    const last = chunks.at(-1);
    expect(last?.type === 'response' && last.response.text).toBe('Answer');
  });

  it('reads cached and reasoning tokens from the usage details', async () => {
    server.push(
      completion({
        prompt_tokens: 2006,
        completion_tokens: 300,
        total_tokens: 2306,
        prompt_tokens_details: { cached_tokens: 1920 },
        completion_tokens_details: { reasoning_tokens: 256 },
      }),
    );
    const { usage } = await model().generate({ messages: [{ role: 'user', content: 'q' }] });
    expect(usage).toEqual({ promptTokens: 2006, completionTokens: 300, cacheReadTokens: 1920, reasoningTokens: 256 });
  });

  it('counts reasoning a provider reports apart from completion tokens (xAI)', async () => {
    server.push(
      completion({
        prompt_tokens: 12,
        completion_tokens: 2,
        total_tokens: 354,
        completion_tokens_details: { reasoning_tokens: 340 },
      }),
    );
    const { usage } = await model().generate({ messages: [{ role: 'user', content: 'q' }] });
    expect(usage).toEqual({ promptTokens: 12, completionTokens: 342, reasoningTokens: 340 });
  });

  it('sends reasoning_effort when set', async () => {
    server.push('ok');
    await model({ reasoningEffort: 'high' }).generate({ messages: [{ role: 'user', content: 'q' }] });
    expect(server.requests[0].body.reasoning_effort).toBe('high');
  });

  it('serves usage details the official openai client reads as our provider does', async () => {
    const reply = {
      text: 'ok',
      usage: { promptTokens: 500, completionTokens: 40, cacheReadTokens: 384, reasoningTokens: 32 },
    };
    server.push(reply, reply);
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    const official = await client.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'q' }],
    });
    const ours = await model().generate({ messages: [{ role: 'user', content: 'q' }] });
    expect(official.usage?.prompt_tokens_details?.cached_tokens).toBe(ours.usage?.cacheReadTokens);
    expect(official.usage?.completion_tokens_details?.reasoning_tokens).toBe(ours.usage?.reasoningTokens);
  });
});

describe('openaiCompatible: images, files and structured output', () => {
  it('sends image parts as image_url (base64 as a data URL) and files as file parts', async () => {
    server.push('a pixel');
    await model().generate({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', url: 'https://example.com/a.png' },
            { type: 'image', data: PNG, mediaType: 'image/png' },
            { type: 'file', data: 'JVBERi0xLjQK', mediaType: 'application/pdf' },
          ],
        },
      ],
    });
    const [message] = server.requests[0].body.messages as { content: unknown }[];
    expect(message.content).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0xLjQK', filename: 'attachment-4.pdf' } },
    ]);
  });

  it('sends a tool result image in a user message after the turn, and says so in the tool text', async () => {
    server.push('a chart');
    await model().generate({
      messages: [
        { role: 'user', content: 'chart' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'chart', arguments: '{}' }] },
        {
          role: 'tool',
          toolCallId: 'c1',
          content: [
            { type: 'text', text: 'drawn' },
            { type: 'image', data: PNG, mediaType: 'image/png' },
          ],
        },
      ],
    });
    const sent = server.requests[0].body.messages as { role: string; content: unknown }[];
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(sent[2].content).toBe('drawn\n(1 attachment follows in the next user message.)');
    expect(sent[3].content).toEqual([
      { type: 'text', text: 'Attachments from the tool results above:' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
    ]);
  });

  it('asks for a json_schema response_format when the request has one and no tools', async () => {
    server.push('{"city":"Lima"}');
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    await model().generate({
      messages: [{ role: 'user', content: 'q' }],
      responseFormat: { name: 'final_answer', schema, strict: true },
    });
    expect(server.requests[0].body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'final_answer', schema, strict: true },
    });
  });
});
