import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.js';
import type { ModelRequest } from '../../../src/core/index.js';
import { type ScriptedModel, scriptedModel } from '../../../src/llm/index.js';
import { createRunWorker, PostgresRunStore, type RunningServer, serve } from '../../../src/server/index.js';
import { defineTool } from '../../../src/tools/index.js';
import { TEST_PG, TEST_REDIS, uniqueName } from '../pg-fixtures.js';
import { tempDir } from '../server-fixtures.js';

const dir = tempDir();
let server: RunningServer;
let client: OpenAI;
let lastModel: ScriptedModel | undefined;

const toolResults = (request: ModelRequest) => request.messages.filter((m) => m.role === 'tool').length;
const call = (id: string, name: string, args: Record<string, unknown>) => ({
  id,
  name,
  arguments: JSON.stringify(args),
});

beforeAll(async () => {
  const agent =
    (reply: (request: ModelRequest) => string | { text: string; toolCalls: ReturnType<typeof call>[] }) => () => {
      lastModel = scriptedModel(reply);
      return new Agent({
        model: lastModel,
        tools: [defineTool({ name: 'clock', description: 'Time.', input: z.object({}), run: () => '12:00' })],
      });
    };
  server = await serve({
    port: 0,
    log: () => {},
    config: {
      store: { type: 'sqlite', path: join(dir.path, 'runs.db') },
      agents: {
        // Two calls of the client's tool in one step, then an answer from both results.
        parallel: agent((r) =>
          toolResults(r) === 0
            ? {
                text: '',
                toolCalls: [call('a', 'get_weather', { city: 'Paris' }), call('b', 'get_weather', { city: 'Oslo' })],
              }
            : `Both: ${r.messages
                .filter((m) => m.role === 'tool')
                .map((m) => m.content)
                .join(' / ')}`,
        ),
        // The same call id twice in a row (a model that reuses ids), then an answer.
        twice: agent((r) =>
          toolResults(r) < 2
            ? { text: '', toolCalls: [call('x', 'get_weather', { city: `c${toolResults(r)}` })] }
            : 'Twice done.',
        ),
        // Its own tool, then the client's, then an answer: both kinds of tool in one run.
        mixed: agent((r) =>
          toolResults(r) === 0
            ? { text: '', toolCalls: [call('k', 'clock', {})] }
            : toolResults(r) === 1
              ? { text: '', toolCalls: [call('w', 'get_weather', { city: 'Rome' })] }
              : `Clock and weather: ${r.messages
                  .filter((m) => m.role === 'tool')
                  .map((m) => m.content)
                  .join(', ')}`,
        ),
        plain: agent(() => 'Plain answer.'),
      },
    },
  });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'none', maxRetries: 0 });
});
afterAll(async () => {
  await server?.close();
  dir.cleanup();
});

const weather: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

/** Runs the chat until it stops asking for tools, answering each call with `answer(args)`. */
async function converse(model: string, answer: (args: { city?: string }) => string) {
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Go.' }];
  const rounds: number[] = [];
  for (let i = 0; i < 5; i++) {
    const completion = await client.chat.completions.create({ model, messages, tools: [weather] });
    const { message, finish_reason } = completion.choices[0];
    messages.push(message);
    if (finish_reason !== 'tool_calls') return { content: message.content, rounds };
    rounds.push(message.tool_calls?.length ?? 0);
    for (const c of message.tool_calls ?? []) {
      if (c.type !== 'function') continue;
      messages.push({ role: 'tool', tool_call_id: c.id, content: answer(JSON.parse(c.function.arguments)) });
    }
  }
  throw new Error('too many rounds');
}

describe('client-side tools', () => {
  it('returns every call of a step at once, and continues with all their results', async () => {
    expect(await converse('parallel', ({ city }) => `${city} ok`)).toEqual({
      content: 'Both: Paris ok / Oslo ok',
      rounds: [2],
    });
  });

  it('pauses again for a second call, even with the same model call id', async () => {
    expect(await converse('twice', ({ city }) => `${city}!`)).toEqual({ content: 'Twice done.', rounds: [1, 1] });
  });

  it("runs the agent's own tools on the server and only the client's tools in the client", async () => {
    expect(await converse('mixed', () => 'warm')).toEqual({ content: 'Clock and weather: 12:00, warm', rounds: [1] });
  });

  it('answers 400 naming the message when a tool result belongs to no waiting run', async () => {
    const error = await client.chat.completions
      .create({
        model: 'plain',
        messages: [
          { role: 'user', content: 'Go.' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'call_9', content: 'x' },
        ],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain('messages[2].tool_call_id');
  });

  it('keeps earlier tool turns as tool turns in the history', async () => {
    await client.chat.completions.create({
      model: 'plain',
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [
            { id: 'old1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'old1', content: 'sunny' },
        { role: 'assistant', content: 'It is sunny.' },
        { role: 'user', content: 'Thanks.' },
      ],
    });
    const sent = lastModel?.calls[0].messages.filter((m) => m.role !== 'system');
    expect(sent).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: 'Checking.',
        toolCalls: [{ id: 'old1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      },
      { role: 'tool', toolCallId: 'old1', content: 'sunny' },
      { role: 'assistant', content: 'It is sunny.' },
      { role: 'user', content: 'Thanks.' },
    ]);
  });

  it('queue mode: the API server answers the call, the worker that waits on it goes on', async () => {
    const schema = uniqueName('tf_client_tools');
    const queueName = uniqueName('runs');
    const agents = {
      remote: () =>
        new Agent({
          model: scriptedModel((r) =>
            toolResults(r) === 0
              ? { text: '', toolCalls: [call('q', 'get_weather', { city: 'Lima' })] }
              : `Queued: ${r.messages.at(-1)?.content}`,
          ),
        }),
    };
    const api = await serve({
      port: 0,
      log: () => {},
      config: { agents },
      queue: TEST_REDIS,
      queueName,
      pg: TEST_PG,
      pgSchema: schema,
    });
    const workerStore = new PostgresRunStore({ connectionString: TEST_PG, schema });
    const worker = createRunWorker({ agents, store: workerStore, redisUrl: TEST_REDIS, queueName, pollMs: 50 });
    try {
      const remote = new OpenAI({ baseURL: `${api.url}/v1`, apiKey: 'none', maxRetries: 0 });
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Go.' }];
      const first = await remote.chat.completions.create({ model: 'remote', messages, tools: [weather] });
      const toolCall = first.choices[0].message.tool_calls?.[0];
      expect(first.choices[0].finish_reason).toBe('tool_calls');
      messages.push(first.choices[0].message, { role: 'tool', tool_call_id: toolCall?.id ?? '', content: 'mild' });
      const second = await remote.chat.completions.create({ model: 'remote', messages, tools: [weather] });
      expect(second.choices[0].message.content).toBe('Queued: mild');
    } finally {
      await worker.close();
      await workerStore.drop();
      await workerStore.close();
      await api.close();
    }
  }, 30_000);
});
