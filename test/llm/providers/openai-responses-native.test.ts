import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, type AgentEvent, defineTool, openaiResponses } from '../../../src/index.js';
import { startResponsesServer } from './responses-server.js';

// Provider-native context and tool management over the Responses API, against a real HTTP server on
// 127.0.0.1 that answers in the API's wire format (item shapes from openai-node's `responses.ts`:
// ResponseCompactionItem, ResponseToolSearchCall, ResponseToolSearchOutputItem, ToolSearchTool).

const server = await startResponsesServer();
afterAll(() => server.close());
beforeEach(() => server.reset());

type Item = Record<string, unknown>;

/** A Response object with these output items. */
function response(output: Item[], inputTokens = 900): Item {
  return {
    id: 'resp_native',
    object: 'response',
    created_at: 1_764_400_000,
    status: 'completed',
    error: null,
    incomplete_details: null,
    model: 'gpt-5.4',
    output,
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 20,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: inputTokens + 20,
    },
  };
}

/** The events the API streams for that Response: each item added and done (a call's arguments as deltas), then `response.completed`. */
function streamed(body: Item): { kind: 'stream'; pieces: string[] } {
  let sequence = 0;
  const event = (type: string, data: Item) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`;
  const pieces = [event('response.created', { response: { ...body, status: 'in_progress', output: [], usage: null } })];
  for (const [output_index, item] of (body.output as Item[]).entries()) {
    if (item.type === 'function_call') {
      pieces.push(event('response.output_item.added', { output_index, item: { ...item, arguments: '' } }));
      const delta = item.arguments;
      pieces.push(event('response.function_call_arguments.delta', { item_id: item.id, output_index, delta }));
    } else pieces.push(event('response.output_item.added', { output_index, item }));
    pieces.push(event('response.output_item.done', { output_index, item }));
  }
  pieces.push(event('response.completed', { response: body }));
  return { kind: 'stream', pieces };
}

const message = (text: string): Item => ({
  id: 'msg_1',
  type: 'message',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', text, annotations: [] }],
});
const functionCall = (callId: string, name: string, args: object): Item => ({
  id: `fc_${callId}`,
  type: 'function_call',
  status: 'completed',
  call_id: callId,
  name,
  arguments: JSON.stringify(args),
});

const weather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  input: z.object({ city: z.string() }),
  run: ({ city }) => `${city}: 12 °C, rain`,
});

describe('openaiResponses({ contextManagement }): server-side compaction', () => {
  const compaction = {
    id: 'cmp_68b0c1',
    type: 'compaction',
    encrypted_content: 'gAAAAABo-opaque-compacted-window==',
    created_by: 'server',
  };

  it('asks for compaction, sends the compaction item back as it came, and reports a provider compaction', async () => {
    server.push(
      streamed(response([compaction, functionCall('call_1', 'get_weather', { city: 'Oslo' })], 12_000)),
      streamed(response([message('Rain in Oslo.')], 3_000)),
    );
    const model = openaiResponses({
      apiKey: 'sk-test',
      model: 'gpt-5.4',
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
      contextManagement: { compactThreshold: 10_000 },
    });
    const events: AgentEvent[] = [];
    const result = await new Agent({ model, tools: [weather] }).run('Weather in Oslo?', {
      onEvent: (e) => events.push(e),
    });
    expect(result.output).toBe('Rain in Oslo.');
    const [first, second] = server.requests;
    expect(first.body.context_management).toEqual([{ type: 'compaction', compact_threshold: 10_000 }]);
    const input = second.body.input as Item[];
    // The opaque item goes back byte for byte, before the call the same reply made.
    const at = input.findIndex((i) => i.type === 'compaction');
    expect(input[at]).toEqual(compaction);
    expect(input[at + 1]).toEqual({
      type: 'function_call',
      call_id: 'call_1',
      name: 'get_weather',
      arguments: '{"city":"Oslo"}',
    });
    expect(input[at + 2]).toEqual({ type: 'function_call_output', call_id: 'call_1', output: 'Oslo: 12 °C, rain' });
    const compacts = events.filter((e) => e.type === 'context_compact');
    expect(compacts).toEqual([
      expect.objectContaining({ kind: 'provider', step: 0, tokensAfter: 12_000, tokensBefore: 12_000, callIds: [] }),
    ]);
    expect(result.stats.compactions).toBe(1);
    // The item stays in the step, so it survives checkpoints and later turns.
    expect(result.steps[0].providerItems).toEqual([
      { type: 'provider_item', provider: 'openai-responses', item: compaction },
    ]);
  });

  it('reads the compaction item from a whole JSON reply too, and sends no context_management unless asked', async () => {
    server.push({ kind: 'json', body: response([compaction, message('ok')]) });
    const plain = openaiResponses({ apiKey: 'sk-test', model: 'gpt-5.4', baseURL: `${server.url}/v1` });
    const reply = await plain.generate({ messages: [{ role: 'user', content: 'hi' }] });
    expect(server.requests[0].body).not.toHaveProperty('context_management');
    expect(reply.compactions).toEqual([{ kind: 'compaction' }]);
    expect(reply.providerItems).toEqual([{ type: 'provider_item', provider: 'openai-responses', item: compaction }]);
    expect(reply.text).toBe('ok');
  });
});

describe('openaiResponses({ toolSearch }): hosted tool search with deferred loading', () => {
  const extra = Array.from({ length: 29 }, (_, i) =>
    defineTool({
      name: `crm_tool_${i}`,
      description: `CRM operation ${i}.`,
      input: z.object({ id: z.string() }),
      run: () => 'done',
    }),
  );
  const time = defineTool({
    name: 'get_time',
    description: 'The time in a zone.',
    input: z.object({ zone: z.string() }),
    run: () => '12:00',
  });

  it('defers every tool but the kept ones, adds tool_search, routes none, and sends the search items back', async () => {
    const searchCall = {
      id: 'tsc_1',
      type: 'tool_search_call',
      call_id: null,
      execution: 'server',
      status: 'completed',
      arguments: { query: 'weather' },
    };
    const searchOutput = {
      id: 'tso_1',
      type: 'tool_search_output',
      call_id: null,
      execution: 'server',
      status: 'completed',
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Current weather for a city.',
          parameters: { type: 'object' },
          strict: false,
          defer_loading: true,
        },
      ],
    };
    server.push(
      streamed(response([searchCall, searchOutput, functionCall('call_w', 'get_weather', { city: 'Rome' })])),
      streamed(response([message('Rome: rain.')])),
    );
    const model = openaiResponses({
      apiKey: 'sk-test',
      model: 'gpt-5.4',
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
      toolSearch: { keep: ['get_time'] },
    });
    const result = await new Agent({ model, tools: [time, ...extra, weather] }).run('Weather in Rome?');
    expect(result.status, JSON.stringify(result.error ?? result.steps.map((s) => s.toolCalls))).toBe('done');
    expect(result.output).toBe('Rome: rain.');
    const tools = server.requests[0].body.tools as Item[];
    // All 31 tools (no routing to 8), each deferred but get_time, then the search tool.
    expect(tools).toHaveLength(32);
    expect(tools.at(-1)).toEqual({ type: 'tool_search' });
    expect(tools.find((t) => t.name === 'get_time')).not.toHaveProperty('defer_loading');
    expect(tools.filter((t) => t.defer_loading === true)).toHaveLength(30);
    const input = server.requests[1].body.input as Item[];
    const at = input.findIndex((i) => i.type === 'tool_search_call');
    expect(input.slice(at, at + 3)).toEqual([
      searchCall,
      searchOutput,
      { type: 'function_call', call_id: 'call_w', name: 'get_weather', arguments: '{"city":"Rome"}' },
    ]);
    expect(result.steps[0].toolCalls[0]).toMatchObject({ name: 'get_weather', ok: true, output: 'Rome: 12 °C, rain' });
  });
});
