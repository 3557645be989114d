import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AgentEvent,
  anthropic,
  defineTool,
  gemini,
  type Model,
  type ModelResponse,
  ollama,
  openaiCompatible,
  openaiResponses,
} from '../../../src/index.js';
import { anthropicMessage, anthropicStreamPieces } from './anthropic-server.js';
import { geminiFormat } from './gemini-server.js';
import { ollamaFormat } from './ollama-server.js';
import { openaiFormat } from './openai-server.js';
import { responsesFormat } from './responses-server.js';
import {
  type RecordedRequest,
  startWireServer,
  type WireFormat,
  type WireReply,
  type WireServer,
} from './wire-server.js';

// What the vendors accept as a function name.
const VENDOR_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The names of the tools a request sent, in each vendor's shape. */
function sentToolNames(body: Record<string, unknown>): string[] {
  const tools = (body.tools ?? []) as Record<string, unknown>[];
  return tools.flatMap((t) => {
    const fn = t.function as { name?: string } | undefined;
    const decls = t.functionDeclarations as { name: string }[] | undefined;
    return decls ? decls.map((d) => d.name) : [fn?.name ?? (t.name as string)];
  });
}

/**
 * A vendor server whose model calls the tool whose description starts with "搜索" by the name it
 * was sent under (as a real model would), then answers with the observation it got back.
 */
function callingServer(format: WireFormat): Promise<WireServer> {
  let turn = 0;
  return startWireServer((_response: ModelResponse, request: RecordedRequest): WireReply => {
    turn++;
    if (turn % 2 === 1) {
      const [name] = sentToolNames(request.body);
      return format({ text: '', toolCalls: [{ id: 'call_1', name, arguments: '{"query":"LangChain"}' }] }, request);
    }
    return format({ text: '搜到了：LangChain是一个框架。' }, request);
  });
}

const anthropicFormat: WireFormat = (response, request) =>
  request.body.stream
    ? { kind: 'stream', pieces: anthropicStreamPieces(response) }
    : { kind: 'json', body: anthropicMessage(response) };

const VENDORS: { name: string; format: WireFormat; model: (url: string) => Model }[] = [
  {
    name: 'openai-compatible',
    format: openaiFormat,
    model: (url) => openaiCompatible({ baseURL: `${url}/v1`, apiKey: 'k', model: 'gpt-4o-mini', maxRetries: 0 }),
  },
  {
    name: 'openai responses',
    format: responsesFormat,
    model: (url) => openaiResponses({ baseURL: `${url}/v1`, apiKey: 'k', model: 'gpt-5-mini', maxRetries: 0 }),
  },
  {
    name: 'anthropic',
    format: anthropicFormat,
    model: (url) => anthropic({ baseURL: `${url}/v1`, apiKey: 'k', model: 'claude-test-1', maxRetries: 0 }),
  },
  {
    name: 'gemini',
    format: geminiFormat,
    model: (url) => gemini({ baseURL: `${url}/v1beta`, apiKey: 'k', model: 'gemini-2.5-flash', maxRetries: 0 }),
  },
  {
    name: 'ollama',
    format: ollamaFormat,
    model: (url) => ollama({ host: url.replace('http://', ''), model: 'qwen2.5:7b', maxRetries: 0 }),
  },
];

describe('Unicode tool names with native tool calling', () => {
  const servers: WireServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  for (const vendor of VENDORS) {
    for (const stream of [false, true]) {
      it(`${vendor.name}${stream ? ', streamed' : ''}: 搜索 goes out wire-safe and comes back as 搜索`, async () => {
        const server = await callingServer(vendor.format);
        servers.push(server);
        server.push('call', 'answer');
        const ran: string[] = [];
        const search = defineTool({
          name: '搜索',
          description: '在互联网上搜索信息',
          input: z.object({ query: z.string() }),
          run: ({ query }) => {
            ran.push(query);
            return 'LangChain是一个框架。';
          },
        });
        const events: AgentEvent[] = [];
        const agent = new Agent({ model: vendor.model(server.url), tools: [search], protocol: 'native' });
        const result = stream
          ? await (async () => {
              for await (const e of agent.stream('LangChain是什么')) events.push(e);
              return events.find((e) => e.type === 'run_end');
            })()
          : await agent.run('LangChain是什么', { onEvent: (e) => events.push(e) });
        expect(ran).toEqual(['LangChain']);
        expect(events.find((e) => e.type === 'tool_start')).toMatchObject({ tool: '搜索' });
        const [first, second] = server.requests;
        const wire = sentToolNames(first.body);
        expect(wire).toHaveLength(1);
        expect(wire[0]).toMatch(VENDOR_NAME);
        // The second request replays the call under the same wire name, never the raw one.
        expect(JSON.stringify(second.body)).not.toContain('"搜索"');
        expect(JSON.stringify(second.body)).toContain(wire[0]);
        expect(result).toBeDefined();
      });
    }
  }
});
