import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.js';
import { openaiCompatible, openaiResponses, scriptedModel } from '../../../src/llm/index.js';
import { loadConfig, type RunningServer, serve } from '../../../src/server/index.js';
import { defineTool } from '../../../src/tools/index.js';
import { tempDir } from '../server-fixtures.js';

const lookup = defineTool({ name: 'lookup', description: 'Looks up.', input: z.object({}), run: () => '42' });
const dir = tempDir();
let server: RunningServer;
let client: OpenAI;

beforeAll(async () => {
  // The data config a user writes first: the demo model with the calculator.
  const file = join(dir.path, 'thinkflow.config.yaml');
  writeFileSync(file, 'agents:\n  demo:\n    model: demo\n    tools: [calculator]\n');
  const data = await loadConfig(file);
  server = await serve({
    port: 0,
    log: () => {},
    config: {
      store: { type: 'sqlite', path: join(dir.path, 'runs.db') },
      agents: {
        ...data.agents,
        // A native agent that says something before its tool call.
        speaker: () =>
          new Agent({
            model: scriptedModel([
              { text: 'Let me look that up. ', toolCalls: [{ id: 'c1', name: 'lookup', arguments: '{}' }] },
              'The answer is 42.',
            ]),
            tools: [lookup],
          }),
      },
    },
  });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'none', maxRetries: 0 });
});
afterAll(async () => {
  await server?.close();
  dir.cleanup();
});

async function chatBoth(model: string, content: string) {
  const messages = [{ role: 'user' as const, content }];
  const plain = await client.chat.completions.create({ model, messages });
  let streamed = '';
  for await (const chunk of await client.chat.completions.create({ model, messages, stream: true })) {
    streamed += chunk.choices[0]?.delta.content ?? '';
  }
  return { plain: plain.choices[0].message.content, streamed, usage: plain.usage };
}

describe('the same answer streamed and not', () => {
  it('a demo agent from a data config answers once, without its ReAct scaffolding', async () => {
    const { plain, streamed } = await chatBoth('demo', 'What is (15 + 7) * 3?');
    expect(plain).toBe('[demo simulation, no real LLM] (15 + 7) * 3 = 66');
    expect(streamed).toBe(plain);
    const response = await client.responses.create({ model: 'demo', input: 'What is (15 + 7) * 3?' });
    const stream = await client.responses.stream({ model: 'demo', input: 'What is (15 + 7) * 3?' }).finalResponse();
    expect(response.output_text).toBe(plain);
    expect(stream.output_text).toBe(plain);
  });

  it('a native agent that speaks before its tool call says it in both', async () => {
    const { plain, streamed } = await chatBoth('speaker', 'What is the answer?');
    expect(plain).toBe('Let me look that up. \n\nThe answer is 42.');
    expect(streamed).toBe(plain);
    // The Responses API gives each model call's words their own message item.
    const response = await client.responses.create({ model: 'speaker', input: 'What is the answer?' });
    const texts = response.output.flatMap((item) =>
      item.type === 'message' ? [item.content.map((p) => (p.type === 'output_text' ? p.text : '')).join('')] : [],
    );
    expect(texts).toEqual(['Let me look that up. ', 'The answer is 42.']);
  });

  it('reports an estimated usage, flagged as one, when the model reports none', async () => {
    const messages = [{ role: 'user' as const, content: 'What is (15 + 7) * 3?' }];
    const { data, response } = await client.chat.completions.create({ model: 'demo', messages }).withResponse();
    expect(data.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(data.usage?.completion_tokens).toBeGreaterThan(0);
    expect((data.usage as unknown as { estimated?: boolean }).estimated).toBe(true);
    expect(response.headers.get('x-thinkflow-usage-estimated')).toBe('true');
  });

  it("thinkflow's own OpenAI providers read what it serves, streamed and not", async () => {
    const baseURL = `${server.url}/v1`;
    for (const model of [
      openaiResponses({ baseURL, model: 'speaker' }),
      openaiCompatible({ baseURL, model: 'speaker' }),
    ]) {
      for (const streaming of [true, false]) {
        const result = await new Agent({ model, streaming }).run('What is the answer?');
        expect(result.status, `${model.id} streaming=${streaming}`).toBe('done');
        expect(result.output).toContain('The answer is 42.');
        expect(result.usage.promptTokens).toBeGreaterThan(0);
      }
    }
  });
});
