import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import { codeMode } from '../../src/code/index.js';
import { anthropic, gemini, openaiCompatible } from '../../src/llm/index.js';
import { startAnthropicServer } from '../llm/providers/anthropic-server.js';
import { startGeminiServer } from '../llm/providers/gemini-server.js';
import { startOpenAIServer } from '../llm/providers/openai-server.js';
import type { WireServer } from '../llm/providers/wire-server.js';
import { priceTools } from './code-helpers.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const recorded = (path: string) => JSON.parse(readFileSync(join(FIXTURES, path), 'utf8')) as unknown;

const servers: WireServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

/** Runs the recorded `run_code` reply, then a plain answer, through a provider; returns the second request's body. */
async function runThrough(server: WireServer, fixture: string, model: Agent['options']['model']) {
  servers.push(server);
  server.push({ kind: 'json', body: recorded(fixture) }, 'The three cost 12 in all.');
  const { price, seen } = priceTools();
  const agent = new Agent({ model, tools: [codeMode([price])], streaming: false });
  const result = await agent.run('What do an apple, a fig and a kiwi cost together?');
  expect(result.status).toBe('done');
  expect(result.output).toBe('The three cost 12 in all.');
  expect(seen.sort()).toEqual(['apple', 'fig', 'kiwi']);
  expect(result.steps[0].toolCalls[0].output).toBe('Returned: 12');
  return { first: JSON.stringify(server.requests[0].body), second: JSON.stringify(server.requests[1].body) };
}

describe('run_code over the vendors’ wire formats (recorded replies)', () => {
  it('OpenAI chat completions: the declarations go in the function description, the result in a tool message', async () => {
    const server = await startOpenAIServer();
    const model = openaiCompatible({ baseURL: `${server.url}/v1/`, apiKey: 'sk-test', model: 'gpt-4o-mini' });
    const { first, second } = await runThrough(server, 'openai/run-code-tool-call.json', model);
    expect(first).toContain('price(input: { item: string }): Promise<{ item: string; usd: number }>;');
    expect(second).toContain('"role":"tool","tool_call_id":"call_Xq2cRunCode01","content":"Returned: 12"');
  });

  it('Anthropic messages: the result goes back as a tool_result for the tool_use id', async () => {
    const server = await startAnthropicServer();
    const model = anthropic({
      apiKey: 'sk-ant-test',
      model: 'claude-test-1',
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
    });
    const { first, second } = await runThrough(server, 'anthropic/message-run-code.json', model);
    expect(first).toContain('"name":"run_code"');
    expect(second).toMatch(/"type":"tool_result","tool_use_id":"toolu_01RunCodeA1b2C3"[^}]*"Returned: 12"/);
  });

  it('Gemini generateContent: the result goes back as a functionResponse of run_code', async () => {
    const server = await startGeminiServer();
    const model = gemini({
      apiKey: 'g-key-test',
      model: 'gemini-2.5-flash',
      baseURL: `${server.url}/v1beta`,
      maxRetries: 0,
    });
    const { first, second } = await runThrough(server, 'gemini/run-code-call.json', model);
    expect(first).toContain('"name":"run_code"');
    expect(second).toMatch(/"functionResponse":\{"name":"run_code"[^}]*Returned: 12/);
  });
});
