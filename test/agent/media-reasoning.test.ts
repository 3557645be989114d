import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, type AgentEvent, defineTool, scriptedModel } from '../../src/index.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const image = { type: 'image' as const, data: PNG, mediaType: 'image/png' };
const echo = defineTool({
  name: 'echo',
  description: 'Echoes.',
  input: z.object({ text: z.string() }),
  run: ({ text }) => text,
});

describe('attachments', () => {
  it('sends the question with its attachments as parts after the text', async () => {
    const model = scriptedModel(['A red pixel.']);
    await new Agent({ model }).run('What is in this image?', { attachments: [image] });
    expect(model.calls[0].messages[1]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'What is in this image?' }, image],
    });
  });

  it('tells a model that reads no images what was left out, and warns once', async () => {
    const model = scriptedModel(['Thought: I cannot see it.\nFinal Answer: unknown'], {
      capabilities: { images: false },
    });
    const events: AgentEvent[] = [];
    const result = await new Agent({ model, protocol: 'react' }).run('Describe it', {
      attachments: [image],
      onEvent: (e) => events.push(e),
    });
    expect(result.status).toBe('done');
    expect(model.calls[0].messages[1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Describe it' },
        { type: 'text', text: '[image: image/png] (not shown: scripted cannot read images or files)' },
      ],
    });
    const warnings = events.filter((e) => e.type === 'warning' && e.code === 'media_unsupported');
    expect(warnings).toHaveLength(1);
  });
});

describe('reasoning', () => {
  it('streams reasoning as reasoning_delta, keeps it out of the answer, and sends it back with its turn', async () => {
    const reasoning = [{ type: 'reasoning' as const, text: 'Echo first.', provider: 'anthropic', signature: 's1' }];
    const model = scriptedModel([
      { text: '', reasoning, toolCalls: [{ id: 'c1', name: 'echo', arguments: '{"text":"hi"}' }] },
      'hi',
    ]);
    const events: AgentEvent[] = [];
    const result = await new Agent({ model, tools: [echo] }).run('echo hi', { onEvent: (e) => events.push(e) });
    expect(result.output).toBe('hi');
    expect(
      events.filter((e) => e.type === 'reasoning_delta').map((e) => e.type === 'reasoning_delta' && e.text),
    ).toEqual(['Echo first.']);
    expect(
      events.filter((e) => e.type === 'model_delta').some((e) => e.type === 'model_delta' && e.text.includes('Echo')),
    ).toBe(false);
    const response = events.find((e) => e.type === 'model_response');
    expect(response?.type === 'model_response' && response.reasoning).toBe('Echo first.');
    expect(result.steps[0].reasoning).toEqual(reasoning);
    expect(model.calls[1].messages[2]).toMatchObject({ role: 'assistant', reasoning });
  });
});

describe('structured output from the provider', () => {
  it('asks a native-protocol model for the output schema as a response format', async () => {
    const model = scriptedModel(['{"city":"Lima"}']);
    const result = await new Agent({ model, outputSchema: z.object({ city: z.string() }) }).run('where?');
    expect(result.object).toEqual({ city: 'Lima' });
    expect(model.calls[0].responseFormat).toMatchObject({
      name: 'final_answer',
      schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    });
  });

  it('does not ask text protocols for it (their replies are not bare JSON)', async () => {
    const model = scriptedModel(['{"final_answer": {"city":"Lima"}}']);
    await new Agent({ model, protocol: 'json', outputSchema: z.object({ city: z.string() }) }).run('where?');
    expect(model.calls[0].responseFormat).toBeUndefined();
  });
});

describe('usage detail', () => {
  it('adds cache and reasoning tokens up in result.usage', async () => {
    const usage = { promptTokens: 100, completionTokens: 20, cacheReadTokens: 80, reasoningTokens: 5 };
    const model = scriptedModel([
      { text: '', usage, toolCalls: [{ id: 'c1', name: 'echo', arguments: '{"text":"a"}' }] },
      { text: 'a', usage },
    ]);
    const result = await new Agent({ model, tools: [echo] }).run('x');
    expect(result.usage).toMatchObject({
      promptTokens: 200,
      completionTokens: 40,
      cacheReadTokens: 160,
      reasoningTokens: 10,
    });
  });
});

describe('images from tools', () => {
  const chart = defineTool({
    name: 'chart',
    description: 'Draws a chart.',
    input: z.object({}),
    run: () => [{ type: 'text' as const, text: 'Sales per product' }, image],
  });

  it('shows a native model the image a tool returned, in its tool message', async () => {
    const model = scriptedModel([{ text: '', toolCalls: [{ id: 'c1', name: 'chart', arguments: '{}' }] }, 'Bars.']);
    const result = await new Agent({ model, tools: [chart] }).run('chart it');
    expect(result.steps[0].toolCalls[0]).toMatchObject({
      output: 'Sales per product\n[image: image/png]',
      media: [image],
    });
    expect(model.calls[1].messages.at(-1)).toEqual({
      role: 'tool',
      toolCallId: 'c1',
      name: 'chart',
      content: [{ type: 'text', text: 'Sales per product\n[image: image/png]' }, image],
    });
  });

  it('puts it after the observation for a text protocol', async () => {
    const model = scriptedModel([
      'Thought: draw\nAction: chart\nAction Input: {}',
      'Thought: seen\nFinal Answer: Bars.',
    ]);
    await new Agent({ model, tools: [chart], protocol: 'react' }).run('chart it');
    const observation = model.calls[1].messages.at(-1);
    expect(observation?.role).toBe('user');
    expect(Array.isArray(observation?.content) && observation.content.at(-1)).toEqual(image);
  });
});
