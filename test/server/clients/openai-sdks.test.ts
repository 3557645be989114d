import { join } from 'node:path';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { run, Agent as SdkAgent, tool as sdkTool, setDefaultOpenAIKey, setTracingDisabled } from '@openai/agents';
import { generateObject, generateText, stepCountIs, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDir } from '../server-fixtures.js';
import { type ServerProcess, spawnCli } from '../spawn-server.js';

const CONFIG = join(import.meta.dirname, '..', 'fixtures', 'openai-clients.config.ts');
const Weather = z.object({ city: z.string(), celsius: z.number() });
let server: ServerProcess;
let baseURL: string;
const dir = tempDir();

beforeAll(async () => {
  server = await spawnCli(['serve', '--port', '0', '--config', CONFIG, '--data-dir', dir.path], {
    THINKFLOW_API_TOKENS: '',
  });
  baseURL = `${server.url}/v1`;
}, 150_000);
afterAll(async () => {
  await server?.kill();
  dir.cleanup();
});

describe('AI SDK against thinkflow serve', () => {
  it("@ai-sdk/openai's default provider (the Responses API): generateText and generateObject", async () => {
    const openai = createOpenAI({ baseURL, apiKey: 'none' });
    const text = await generateText({ model: openai('assistant'), prompt: 'hi' });
    expect(text.text).toBe('Hello from thinkflow: you said "hi".');
    expect(text.usage.totalTokens).toBeGreaterThan(0);
    const object = await generateObject({ model: openai('assistant'), schema: Weather, prompt: 'Weather as JSON' });
    expect(object.object).toEqual({ city: 'Paris', celsius: 21 });
  });

  it('client tools through createOpenAICompatible: the SDK runs the tool, the run goes on', async () => {
    const thinkflow = createOpenAICompatible({ name: 'thinkflow', baseURL });
    const calls: string[] = [];
    const result = await generateText({
      model: thinkflow('assistant'),
      prompt: 'Weather in Paris?',
      tools: {
        get_weather: tool({
          description: 'The weather in a city.',
          inputSchema: z.object({ city: z.string() }),
          execute: async ({ city }) => {
            calls.push(city);
            return 'sunny';
          },
        }),
      },
      stopWhen: stepCountIs(3),
    });
    expect(calls).toEqual(['Paris']);
    expect(result.steps[0].finishReason).toBe('tool-calls');
    expect(result.text).toBe('The weather tool says: sunny.');
  });
});

describe('LangChain against thinkflow serve', () => {
  const model = () => new ChatOpenAI({ model: 'assistant', apiKey: 'none', configuration: { baseURL } });

  it('bindTools: the call comes back as tool_calls and a ToolMessage continues the run', async () => {
    const bound = model().bindTools([
      { name: 'get_weather', description: 'The weather.', schema: z.object({ city: z.string() }) },
    ]);
    const question = new HumanMessage('Weather in Paris?');
    const first = await bound.invoke([question]);
    expect(first.tool_calls?.[0]).toMatchObject({ name: 'get_weather', args: { city: 'Paris' } });
    expect(first.usage_metadata?.total_tokens).toBeGreaterThan(0);
    const id = first.tool_calls?.[0].id ?? '';
    const second = await bound.invoke([question, first, new ToolMessage({ tool_call_id: id, content: 'rainy' })]);
    expect(second.content).toBe('The weather tool says: rainy.');
  });

  it('withStructuredOutput answers the schema', async () => {
    const structured = model().withStructuredOutput(Weather);
    expect(await structured.invoke('Weather as JSON')).toEqual({ city: 'Paris', celsius: 21 });
  });
});

describe('OpenAI Agents SDK against thinkflow serve', () => {
  // Its default provider makes its own client (with its own openai package) from the environment.
  beforeAll(() => {
    setTracingDisabled(true);
    process.env.OPENAI_BASE_URL = baseURL;
    setDefaultOpenAIKey('none');
  });
  afterAll(() => {
    delete process.env.OPENAI_BASE_URL;
  });

  it('function tools: the SDK runs them and sends the outputs back', async () => {
    const getWeather = sdkTool({
      name: 'get_weather',
      description: 'The weather in a city.',
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => `foggy in ${city}`,
    });
    const agent = new SdkAgent({ name: 'front', model: 'assistant', tools: [getWeather] });
    const result = await run(agent, 'Weather in Paris?');
    expect(result.finalOutput).toBe('The weather tool says: foggy in Paris.');
  });

  it('outputType: the final output matches the schema', async () => {
    const agent = new SdkAgent({ name: 'front', model: 'assistant', outputType: Weather });
    const result = await run(agent, 'Weather as JSON');
    expect(result.finalOutput).toEqual({ city: 'Paris', celsius: 21 });
  });
});
