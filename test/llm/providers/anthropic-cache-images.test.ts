import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { costOf } from '../../../src/entries/models.js';
import { Agent, anthropic, defineTool } from '../../../src/index.js';
import { startAnthropicServer } from './anthropic-server.js';

const server = await startAnthropicServer();
afterAll(() => server.close());
beforeEach(() => server.reset());
const model = (options: { cacheControl?: boolean } = {}) =>
  anthropic({
    apiKey: 'sk-ant-test',
    model: 'claude-sonnet-4-5',
    baseURL: `${server.url}/v1`,
    maxRetries: 0,
    ...options,
  });

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a word up in a long reference.',
  input: z.object({ word: z.string() }),
  run: ({ word }) => `${word}: a word`,
});

describe('anthropic prompt caching', () => {
  it('reports cache reads and writes over an agent run, priced in costUsd', async () => {
    const call = (i: number) => ({
      text: '',
      toolCalls: [{ id: `toolu_${i}`, name: 'lookup', arguments: `{"word":"w${i}"}` }],
    });
    server.push(
      { kind: 'reply', response: call(1) },
      { kind: 'reply', response: call(2) },
      { kind: 'reply', response: { text: 'done' } },
    );
    const agent = new Agent({ model: model(), tools: [lookup], instructions: 'Reference: '.repeat(800) });
    const result = await agent.run('define w1 and w2');
    expect(result.status).toBe('done');
    const [first, second] = server.requests.map((r) => r.body);
    expect(JSON.stringify(first)).toContain('"cache_control":{"type":"ephemeral"}');
    expect(second).toBeDefined();
    // Step 1 writes the prefix; steps 2 and 3 read it.
    const usages = result.steps.map((s) => s.usage);
    expect(usages[0]?.cacheWriteTokens).toBeGreaterThan(1024);
    expect(usages[0]?.cacheReadTokens).toBeUndefined();
    expect(usages[1]?.cacheReadTokens).toBeGreaterThanOrEqual(usages[0]?.cacheWriteTokens ?? Number.NaN);
    expect(result.usage.cacheReadTokens).toBe((usages[1]?.cacheReadTokens ?? 0) + (usages[2]?.cacheReadTokens ?? 0));
    expect(result.usage.cacheWriteTokens).toBeGreaterThan(0);
    // Prompt tokens count every token, cached or not (budgets see them all).
    const body = (i: number) => Math.ceil(JSON.stringify(server.requests[i].body).length / 4);
    expect(usages[1]?.promptTokens).toBeGreaterThan(body(1) * 0.8);
    const uncached = costOf('anthropic:claude-sonnet-4-5', {
      promptTokens: result.usage.promptTokens,
      completionTokens: result.usage.completionTokens,
    });
    expect(result.usage.costUsd).toBeLessThan(uncached ?? 0);
  });

  it('sends no cache_control when cacheControl is false', async () => {
    server.push('ok');
    await model({ cacheControl: false }).generate({
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'q' },
      ],
      tools: [{ name: 't', description: 'd', parameters: { type: 'object' } }],
    });
    const body = server.requests[0].body;
    expect(JSON.stringify(body)).not.toContain('cache_control');
    expect(body.system).toBe('sys');
  });
});

describe('anthropic images and files', () => {
  it('sends image parts (base64, URL, data URL) and PDFs as image/document blocks', async () => {
    server.push('a cat');
    await model().generate({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', data: PNG, mediaType: 'image/png' },
            { type: 'image', url: 'https://example.com/cat.jpg' },
            { type: 'image', url: `data:image/png;base64,${PNG}` },
            { type: 'file', data: 'JVBERi0xLjQK', mediaType: 'application/pdf' },
          ],
        },
      ],
    });
    const [message] = server.requests[0].body.messages as { content: Record<string, unknown>[] }[];
    expect(message.content.map(({ cache_control: _c, ...block }) => block)).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' } },
    ]);
  });

  it('puts an image a tool returned inside its tool_result', async () => {
    server.push('a bar chart');
    await model({ cacheControl: false }).generate({
      messages: [
        { role: 'user', content: 'chart it' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_c', name: 'chart', arguments: '{}' }] },
        {
          role: 'tool',
          toolCallId: 'toolu_c',
          content: [
            { type: 'text', text: 'chart.png' },
            { type: 'image', data: PNG, mediaType: 'image/png' },
          ],
        },
      ],
    });
    const sent = server.requests[0].body.messages as { content: unknown[] }[];
    expect(sent[2].content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_c',
        content: [
          { type: 'text', text: 'chart.png' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        ],
      },
    ]);
  });

  it('refuses a file type the API cannot read, naming what it can', async () => {
    const error = await model()
      .generate({
        messages: [{ role: 'user', content: [{ type: 'file', data: 'AAAA', mediaType: 'application/zip' }] }],
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ConfigError', message: expect.stringContaining('application/zip') });
  });
});
