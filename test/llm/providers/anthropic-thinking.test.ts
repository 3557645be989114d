import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, anthropic, defineTool, type Message, type ModelChunk } from '../../../src/index.js';
import { startAnthropicServer } from './anthropic-server.js';

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'anthropic', name), 'utf8');
const server = await startAnthropicServer();
afterAll(() => server.close());
beforeEach(() => server.reset());
const thinker = () =>
  anthropic({
    apiKey: 'sk-ant-test',
    model: 'claude-test-1',
    baseURL: `${server.url}/v1`,
    maxRetries: 0,
    thinking: { budgetTokens: 2000 },
  });

async function collect(stream: AsyncIterable<ModelChunk>): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const SIGNATURE =
  'ErUBCkYIARgCIkACJWxzySUOJzOlZ8WFdgQSbeQA3H1i5rfkKLV9eC4HN6Jcnrlw1NcnPRIPaTs9jLF3rllsfoidjZapJ+5MLwjVEgzTfQ6r9tDZvyBP0nEaDHWRqRWP7CoPOc+ksSIwSlxHzaMbnyXGoiNmCj9thC3N6EDMpemJPx3UZqDtrgmKZgQMMzNzNsh9IxgvtuYKKh1PxXUmWexqlckSVETQj3LbHLK/nwEK+bz0+2b/pA==';

describe('anthropic extended thinking', () => {
  it('streams a recorded thinking block as reasoning, apart from the answer, with its signature', async () => {
    server.push({ kind: 'stream', pieces: [fixture('stream-thinking.sse')] });
    const chunks = await collect(thinker().stream({ messages: [{ role: 'user', content: 'hey' }] }));
    const reasoning = chunks.flatMap((c) => (c.type === 'reasoning_delta' ? [c.text] : [])).join('');
    expect(reasoning).toMatch(/^The user has simply said "hey"/);
    const last = chunks.at(-1);
    if (last?.type !== 'response') throw new Error('no response chunk');
    expect(last.response.text).toBe(
      "Hello! I'm Assistant, an AI here to help you. How can I assist you today? Feel free to ask questions or let me know what you're looking for, and I'll do my best to help.",
    );
    expect(last.response.reasoning).toEqual([
      { type: 'reasoning', text: reasoning, provider: 'anthropic', signature: SIGNATURE },
    ]);
    expect(last.response.usage).toMatchObject({ promptTokens: 778, completionTokens: 104 });
  });

  it('asks for thinking, adds the budget to max_tokens, sends no temperature', async () => {
    server.push('ok');
    await thinker().generate({ messages: [{ role: 'user', content: 'x' }], temperature: 0.2, maxTokens: 1000 });
    const body = server.requests[0].body;
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2000 });
    expect(body.max_tokens).toBe(3000);
    expect(body.temperature).toBeUndefined();
  });

  it('sends the thinking and redacted_thinking blocks of a tool-use turn back unchanged, first', async () => {
    server.push({
      text: '',
      reasoning: [
        { type: 'reasoning', text: 'I should look it up.', signature: 'sig-1' },
        { type: 'reasoning', text: '', encrypted: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
      ],
      toolCalls: [{ id: 'toolu_1', name: 'lookup', arguments: '{"q":"x"}' }],
    });
    const first = await thinker().generate({ messages: [{ role: 'user', content: 'find x' }] });
    expect(first.reasoning).toEqual([
      { type: 'reasoning', text: 'I should look it up.', provider: 'anthropic', signature: 'sig-1' },
      { type: 'reasoning', text: '', provider: 'anthropic', encrypted: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
    ]);
    server.push('found');
    const history: Message[] = [
      { role: 'user', content: 'find x' },
      { role: 'assistant', content: first.text, toolCalls: first.toolCalls, reasoning: first.reasoning },
      { role: 'tool', toolCallId: 'toolu_1', content: 'x is 1' },
    ];
    await thinker().generate({ messages: history });
    const sent = server.requests[1].body.messages as { role: string; content: unknown[] }[];
    expect(sent[1].content).toEqual([
      { type: 'thinking', thinking: 'I should look it up.', signature: 'sig-1' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
      { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'x' } },
    ]);
  });

  it('does not send reasoning another provider produced (its signature means nothing here)', async () => {
    server.push('ok');
    await thinker().generate({
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: 'a',
          reasoning: [{ type: 'reasoning', text: 'r', provider: 'gemini', signature: 'g' }],
        },
        { role: 'user', content: 'q2' },
      ],
    });
    const sent = server.requests[0].body.messages as { content: unknown[] }[];
    expect(sent[1].content).toEqual([{ type: 'text', text: 'a' }]);
  });

  it('serves thinking the official @anthropic-ai/sdk reads into the same blocks', async () => {
    const reply = {
      text: 'Done.',
      reasoning: [{ type: 'reasoning' as const, text: 'Let me think about this.', signature: 'sig-abc' }],
    };
    server.push(reply, reply);
    const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, maxRetries: 0 });
    const official = await client.messages
      .stream({ model: 'claude-test-1', max_tokens: 100, messages: [{ role: 'user', content: 'x' }] })
      .finalMessage();
    const last = (await collect(thinker().stream({ messages: [{ role: 'user', content: 'x' }] }))).at(-1);
    if (last?.type !== 'response') throw new Error('no response chunk');
    const thinking = official.content.flatMap((b) =>
      b.type === 'thinking' ? [{ text: b.thinking, signature: b.signature }] : [],
    );
    expect(thinking).toEqual(last.response.reasoning?.map((r) => ({ text: r.text, signature: r.signature })));
  });
});

describe('anthropic structured output', () => {
  it('forces an answer tool and returns its input as the reply text', async () => {
    const model = anthropic({ apiKey: 'k', model: 'claude-test-1', baseURL: `${server.url}/v1`, maxRetries: 0 });
    server.push({ text: '', toolCalls: [{ id: 'toolu_f', name: 'final_answer', arguments: '{"city":"Lima"}' }] });
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const reply = await model.generate({
      messages: [{ role: 'user', content: 'where?' }],
      responseFormat: { name: 'final_answer', schema },
    });
    expect(reply).toMatchObject({ text: '{"city":"Lima"}', finishReason: 'stop' });
    expect(reply.toolCalls).toBeUndefined();
    expect(server.requests[0].body).toMatchObject({
      tools: [{ name: 'final_answer', input_schema: schema }],
      tool_choice: { type: 'tool', name: 'final_answer' },
    });
  });

  it('does not force a tool with thinking on (the API forbids it)', async () => {
    server.push('{"city":"Lima"}');
    await thinker().generate({
      messages: [{ role: 'user', content: 'where?' }],
      responseFormat: { name: 'final_answer', schema: { type: 'object' } },
    });
    expect(server.requests[0].body.tool_choice).toBeUndefined();
  });
});

describe('an agent with extended thinking', () => {
  it('streams thinking as reasoning_delta events and sends the signed blocks back on the next step', async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: 'Looks up',
      input: z.object({ q: z.string() }),
      run: () => '1',
    });
    server.push(
      {
        text: '',
        reasoning: [{ type: 'reasoning', text: 'I need to look it up.', signature: 'sig-agent' }],
        toolCalls: [{ id: 'toolu_a', name: 'lookup', arguments: '{"q":"x"}' }],
      },
      'x is 1',
    );
    const deltas: string[] = [];
    const result = await new Agent({ model: thinker(), tools: [lookup] }).run('what is x?', {
      onEvent: (e) => {
        if (e.type === 'reasoning_delta') deltas.push(e.text);
      },
    });
    expect(result.output).toBe('x is 1');
    expect(deltas.join('')).toBe('I need to look it up.');
    const sent = server.requests[1].body.messages as { role: string; content: Record<string, unknown>[] }[];
    expect(sent[1].content[0]).toEqual({ type: 'thinking', thinking: 'I need to look it up.', signature: 'sig-agent' });
  });
});
