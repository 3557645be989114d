import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { type RunningServer, serve } from '../../../src/server/index.js';
import { callReply, echoTool, tempDir } from '../server-fixtures.js';

let server: RunningServer;
let dir: ReturnType<typeof tempDir>;
let client: OpenAI;
const seen: { messages: unknown[]; input: string }[] = [];

beforeAll(async () => {
  dir = tempDir();
  server = await serve({
    port: 0,
    log: () => {},
    config: {
      auth: { tokens: ['test-token'] },
      store: { type: 'sqlite', path: join(dir.path, 'runs.db') },
      agents: {
        echoer: () =>
          new Agent({
            model: scriptedModel((request, index) => {
              if (index === 0) {
                seen.push({ messages: request.messages, input: String(request.messages.at(-1)?.content) });
                return callReply('c1', 'echo', { text: 'hello' });
              }
              return `The agent answers: ${'long text '.repeat(20).trim()}`;
            }),
            tools: [echoTool()],
          }),
      },
    },
  });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test-token', maxRetries: 0 });
});

afterAll(async () => {
  await server.close();
  dir.cleanup();
});

describe('POST /v1/chat/completions with the official openai client', () => {
  it('answers a completion with the run output and usage', async () => {
    const completion = await client.chat.completions.create({
      model: 'echoer',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: 'first answer' },
        { role: 'user', content: 'say hello' },
      ],
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('echoer');
    expect(completion.choices[0].message.content).toMatch(/^The agent answers: long text/);
    expect(completion.choices[0].finish_reason).toBe('stop');
    expect(completion.usage?.total_tokens).toBeGreaterThanOrEqual(0);
    const last = seen.at(-1)!;
    expect(last.input).toBe('say hello');
    // The turns before the last user message reach the model as the run's history.
    expect(last.messages).toEqual(
      expect.arrayContaining([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: 'first answer' },
      ]),
    );
  });

  it('streams the answer as chunks the client reassembles', async () => {
    const stream = await client.chat.completions.create({
      model: 'echoer',
      messages: [{ role: 'user', content: 'say hello' }],
      stream: true,
    });
    let text = '';
    let chunks = 0;
    let finish: string | null = null;
    for await (const chunk of stream) {
      chunks += 1;
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe(`The agent answers: ${'long text '.repeat(20).trim()}`);
    expect(chunks).toBeGreaterThan(3);
    expect(finish).toBe('stop');
  });

  it('surfaces an unknown agent as a 404 API error and a bad token as 401', async () => {
    await expect(
      client.chat.completions.create({ model: 'nobody', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toMatchObject({ status: 404 });
    const stranger = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'wrong', maxRetries: 0 });
    await expect(
      stranger.chat.completions.create({ model: 'echoer', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toMatchObject({ status: 401 });
  });
});
