import { join } from 'node:path';
import OpenAI from 'openai';
import { zodResponseFormat, zodTextFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDir } from '../server-fixtures.js';
import { type ServerProcess, spawnCli } from '../spawn-server.js';

const CONFIG = join(import.meta.dirname, '..', 'fixtures', 'openai-clients.config.ts');
let server: ServerProcess;
let client: OpenAI;
const dir = tempDir();

beforeAll(async () => {
  server = await spawnCli(['serve', '--port', '0', '--config', CONFIG, '--data-dir', dir.path], {
    THINKFLOW_API_TOKENS: '',
  });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'none', maxRetries: 0 });
}, 150_000);
afterAll(async () => {
  await server?.kill();
  dir.cleanup();
});

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'The weather in a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

describe('the official openai client against thinkflow serve', () => {
  it('lists the agents as models', async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['assistant']);
    expect((await client.models.retrieve('assistant')).id).toBe('assistant');
  });

  it('creates a response, streamed and not, with the same output', async () => {
    const created = await client.responses.create({ model: 'assistant', input: 'hi' });
    expect(created.status).toBe('completed');
    expect(created.output_text).toBe('Hello from thinkflow: you said "hi".');
    const stream = client.responses.stream({ model: 'assistant', input: 'hi' });
    const deltas: string[] = [];
    stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
    const streamed = await stream.finalResponse();
    expect(streamed.output_text).toBe(created.output_text);
    expect(deltas.join('')).toBe(created.output_text);
    expect(streamed.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('round-trips a client tool through chat completions: tool_calls, then the result continues the run', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await client.chat.completions.create({ model: 'assistant', messages, tools: [weatherTool] });
    const choice = first.choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBe('Let me check the weather.');
    const call = choice.message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error('no function call');
    expect(call.function).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    messages.push(choice.message, { role: 'tool', tool_call_id: call.id, content: 'sunny, 21 °C' });
    const second = await client.chat.completions.create({ model: 'assistant', messages, tools: [weatherTool] });
    expect(second.choices[0].finish_reason).toBe('stop');
    expect(second.choices[0].message.content).toBe('The weather tool says: sunny, 21 °C.');
  });

  it('round-trips a client tool through a streamed chat completion', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const runner = client.chat.completions.stream({
      model: 'assistant',
      messages,
      tools: [weatherTool],
      stream_options: { include_usage: true },
    });
    const first = await runner.finalChatCompletion();
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    expect(first.usage?.total_tokens).toBeGreaterThan(0);
    const call = first.choices[0].message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error('no function call');
    messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: 'cloudy' });
    const second = await client.chat.completions
      .stream({ model: 'assistant', messages, tools: [weatherTool] })
      .finalChatCompletion();
    expect(second.choices[0].message.content).toBe('The weather tool says: cloudy.');
  });

  it('round-trips a client tool through the Responses API, streamed', async () => {
    const tools: OpenAI.Responses.Tool[] = [
      {
        type: 'function',
        name: 'get_weather',
        description: 'The weather.',
        parameters: weatherTool.function.parameters,
        strict: false,
      },
    ];
    const first = await client.responses
      .stream({ model: 'assistant', input: 'Weather in Paris?', tools })
      .finalResponse();
    const call = first.output.find((item) => item.type === 'function_call');
    if (call?.type !== 'function_call') throw new Error('no function call');
    expect(first.output_text).toBe('Let me check the weather.');
    expect(call.arguments).toBe('{"city":"Paris"}');
    const second = await client.responses.create({
      model: 'assistant',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'windy' }],
      tools,
    });
    expect(second.output_text).toBe('The weather tool says: windy.');
  });

  it('honours response_format and text.format JSON Schemas', async () => {
    const Weather = z.object({ city: z.string(), celsius: z.number() });
    const chat = await client.chat.completions.parse({
      model: 'assistant',
      messages: [{ role: 'user', content: 'Weather as JSON' }],
      response_format: zodResponseFormat(Weather, 'weather'),
    });
    expect(chat.choices[0].message.parsed).toEqual({ city: 'Paris', celsius: 21 });
    const response = await client.responses.parse({
      model: 'assistant',
      input: 'Weather as JSON',
      text: { format: zodTextFormat(Weather, 'weather') },
    });
    expect(response.output_parsed).toEqual({ city: 'Paris', celsius: 21 });
  });

  it('answers 400 naming a field an agent cannot honour', async () => {
    const refused = (body: Record<string, unknown>) =>
      client.chat.completions
        .create({ model: 'assistant', messages: [{ role: 'user', content: 'hi' }], ...body })
        .catch((e: unknown) => e);
    for (const [field, body] of [
      ['n', { n: 2 }],
      ['logprobs', { logprobs: true }],
      ['temperature', { temperature: 0.2 }],
      ['tool_choice', { tool_choice: 'required', tools: [weatherTool] }],
    ] as const) {
      const error = await refused(body);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as Error).message).toContain(field);
    }
    const responses = await client.responses
      .create({ model: 'assistant', input: 'hi', max_output_tokens: 5 })
      .catch((e: unknown) => e);
    expect((responses as Error).message).toContain('max_output_tokens');
  });

  it('reads the fields both forms share alike: caller fields pass, forced tool settings are refused on each', async () => {
    const caller = {
      user: 'u_1',
      metadata: { team: 'support' },
      safety_identifier: 's_1',
      tool_choice: 'auto',
    } as const;
    expect(
      (
        await client.chat.completions.create({
          model: 'assistant',
          messages: [{ role: 'user', content: 'hi' }],
          ...caller,
        })
      ).choices,
    ).toHaveLength(1);
    expect((await client.responses.create({ model: 'assistant', input: 'hi', ...caller })).status).toBe('completed');
    for (const [field, body] of [
      ['tool_choice', { tool_choice: 'required' }],
      ['parallel_tool_calls', { parallel_tool_calls: false }],
      ['top_p', { top_p: 0.5 }],
    ] as const) {
      const chat = await client.chat.completions
        .create({ model: 'assistant', messages: [{ role: 'user', content: 'hi' }], tools: [weatherTool], ...body })
        .catch((e: unknown) => e);
      const responses = await client.responses
        .create({ model: 'assistant', input: 'hi', ...body })
        .catch((e: unknown) => e);
      for (const error of [chat, responses]) {
        expect(error).toBeInstanceOf(OpenAI.BadRequestError);
        expect((error as Error).message).toContain(field);
      }
    }
  });
});
