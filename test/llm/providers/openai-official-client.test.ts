import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { openaiCompatible } from '../../../src/index.js';
import { startOpenAIServer } from './openai-server.js';

// Drives the fake server with the official `openai` client: if the client reads our fake the
// same way our provider does, the fake is faithful to the real wire protocol.
const server = await startOpenAIServer();
afterAll(() => server.close());

const reply = {
  text: 'Checking two things.',
  toolCalls: [
    { id: 'call_a', name: 'get_weather', arguments: '{"city":"Lima"}' },
    { id: 'call_b', name: 'get_time', arguments: '{"tz":"America/Lima"}' },
  ],
  usage: { promptTokens: 31, completionTokens: 17 },
};

describe('the fake OpenAI server, read by the official openai client', () => {
  const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });

  it('serves a chat completion the client parses like our provider does', async () => {
    server.push(reply, reply);
    const official = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'weather and time in Lima' }],
    });
    const ours = await openaiCompatible({ baseURL: `${server.url}/v1`, model: 'gpt-4o-mini' }).generate({
      messages: [{ role: 'user', content: 'weather and time in Lima' }],
    });
    const message = official.choices[0].message;
    expect(message.content).toBe(ours.text);
    expect(
      message.tool_calls?.map((c) =>
        c.type === 'function' ? { id: c.id, name: c.function.name, arguments: c.function.arguments } : c,
      ),
    ).toEqual(ours.toolCalls);
    expect(official.usage?.prompt_tokens).toBe(ours.usage?.promptTokens);
  });

  it('streams chunks the client accumulates into the same tool calls and usage', async () => {
    server.push(reply);
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    const calls: { id?: string; name?: string; arguments: string }[] = [];
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      const delta = chunk.choices[0]?.delta;
      text += delta?.content ?? '';
      for (const tc of delta?.tool_calls ?? []) {
        calls[tc.index] ??= { arguments: '' };
        if (tc.id) calls[tc.index].id = tc.id;
        if (tc.function?.name) calls[tc.index].name = tc.function.name;
        calls[tc.index].arguments += tc.function?.arguments ?? '';
      }
    }
    expect(text).toBe(reply.text);
    expect(calls).toEqual(reply.toolCalls);
    expect(usage).toMatchObject({ prompt_tokens: 31, completion_tokens: 17 });
  });

  it('answers errors in the shape the client turns into APIError', async () => {
    server.push({
      kind: 'json',
      status: 400,
      body: { error: { message: 'bad request', type: 'invalid_request_error' } },
    });
    const error = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
  });
});
