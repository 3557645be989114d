import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, type AgentEvent, anthropic, defineTool } from '../../../src/index.js';
import { startAnthropicServer } from './anthropic-server.js';

// Anthropic's own context editing and tool search, against a real HTTP server on 127.0.0.1 that
// answers in the Messages API's wire format (shapes from anthropic-sdk-typescript: BetaClearToolUses20250919Edit,
// BetaContextManagementResponse, ToolSearchToolBm25_20251119, ServerToolUseBlock, ToolSearchToolResultBlock).

const server = await startAnthropicServer();
afterAll(() => server.close());
beforeEach(() => server.reset());

type Block = Record<string, unknown>;
const event = (type: string, data: Block) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** The SSE events of a message with these blocks: server_tool_use and tool_use inputs as `input_json_delta`s. */
function streamed(content: Block[], options: { inputTokens?: number; management?: Block } = {}) {
  const usage = { input_tokens: options.inputTokens ?? 900, output_tokens: 1 };
  const start = { id: 'msg_native', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [] };
  const pieces = [event('message_start', { message: { ...start, stop_reason: null, usage } })];
  for (const [index, block] of content.entries()) {
    if (block.type === 'tool_use' || block.type === 'server_tool_use') {
      pieces.push(event('content_block_start', { index, content_block: { ...block, input: {} } }));
      const json = JSON.stringify(block.input);
      for (const partial_json of [json.slice(0, 5), json.slice(5)]) {
        pieces.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }));
      }
    } else if (block.type === 'text') {
      pieces.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      pieces.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } }));
    } else pieces.push(event('content_block_start', { index, content_block: block }));
    pieces.push(event('content_block_stop', { index }));
  }
  const stop = content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  pieces.push(
    event('message_delta', {
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: 30 },
      context_management: options.management ?? null,
    }),
  );
  pieces.push(event('message_stop', {}));
  return { kind: 'stream' as const, pieces };
}

const weather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  input: z.object({ city: z.string() }),
  run: ({ city }) => `${city}: 12 °C, rain`,
});
const toolUse = (id: string, city: string): Block => ({ type: 'tool_use', id, name: 'get_weather', input: { city } });

describe('anthropic({ contextEditing }): clear_tool_uses on the API side', () => {
  it('sends the edit with the beta header and reports what the API cleared as a provider compaction', async () => {
    const applied = {
      applied_edits: [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: 8, cleared_input_tokens: 50_000 }],
    };
    server.push(
      streamed([toolUse('toolu_1', 'Oslo')], { inputTokens: 31_000, management: applied }),
      streamed([{ type: 'text', text: 'Rain in Oslo.' }]),
    );
    const model = anthropic({
      apiKey: 'sk-ant-test',
      model: 'claude-sonnet-4-5',
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
      headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' },
      contextEditing: {
        trigger: { type: 'input_tokens', value: 30_000 },
        keep: { type: 'tool_uses', value: 3 },
        clearAtLeast: { type: 'input_tokens', value: 5_000 },
        excludeTools: ['web_search'],
      },
    });
    const events: AgentEvent[] = [];
    const result = await new Agent({ model, tools: [weather] }).run('Weather in Oslo?', {
      onEvent: (e) => events.push(e),
    });
    expect(result.output).toBe('Rain in Oslo.');
    const [first] = server.requests;
    expect(first.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14,context-management-2025-06-27');
    expect(first.body.context_management).toEqual({
      edits: [
        {
          type: 'clear_tool_uses_20250919',
          trigger: { type: 'input_tokens', value: 30_000 },
          keep: { type: 'tool_uses', value: 3 },
          clear_at_least: { type: 'input_tokens', value: 5_000 },
          exclude_tools: ['web_search'],
        },
      ],
    });
    const compacts = events.filter((e) => e.type === 'context_compact');
    expect(compacts).toEqual([
      expect.objectContaining({ kind: 'provider', step: 0, tokensBefore: 81_000, tokensAfter: 31_000, callIds: [] }),
    ]);
    expect(result.stats.compactions).toBe(1);
  });

  it('takes the API defaults with `true`, and reads applied edits from a whole JSON reply', async () => {
    server.push({
      kind: 'json',
      body: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: 'ok' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 40_000, output_tokens: 2 },
        context_management: {
          applied_edits: [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: 2, cleared_input_tokens: 9_000 }],
        },
      },
    });
    const model = anthropic({
      apiKey: 'k',
      model: 'claude-sonnet-4-5',
      baseURL: `${server.url}/v1`,
      contextEditing: true,
    });
    const reply = await model.generate({ messages: [{ role: 'user', content: 'hi' }] });
    expect(server.requests[0].body.context_management).toEqual({ edits: [{ type: 'clear_tool_uses_20250919' }] });
    expect(server.requests[0].headers['anthropic-beta']).toBe('context-management-2025-06-27');
    expect(reply.compactions).toEqual([{ kind: 'clear_tool_uses_20250919', clearedTokens: 9_000, clearedToolUses: 2 }]);
  });
});

describe('anthropic({ toolSearch }): deferred loading with the tool search tool', () => {
  const extra = Array.from({ length: 24 }, (_, i) =>
    defineTool({
      name: `crm_tool_${i}`,
      description: `CRM operation ${i}.`,
      input: z.object({ id: z.string() }),
      run: () => 'done',
    }),
  );

  it('sends the search tool first and every tool deferred, routes none, and sends the server blocks back as they came', async () => {
    const search: Block = {
      type: 'server_tool_use',
      id: 'srvtoolu_01',
      name: 'tool_search_tool_bm25',
      input: { query: 'weather' },
    };
    const found: Block = {
      type: 'tool_search_tool_result',
      tool_use_id: 'srvtoolu_01',
      content: {
        type: 'tool_search_tool_search_result',
        tool_references: [{ type: 'tool_reference', tool_name: 'get_weather' }],
      },
    };
    server.push(
      streamed([search, found, toolUse('toolu_w', 'Rome')]),
      streamed([{ type: 'text', text: 'Rome: rain.' }]),
    );
    const model = anthropic({
      apiKey: 'sk-ant-test',
      model: 'claude-sonnet-4-5',
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
      toolSearch: 'bm25',
    });
    const result = await new Agent({ model, tools: [...extra, weather] }).run('Weather in Rome?');
    expect(result.output).toBe('Rome: rain.');
    const tools = server.requests[0].body.tools as Block[];
    expect(tools).toHaveLength(26);
    // The search tool is the one tool loaded up front, so it carries the cache breakpoint.
    expect(tools[0]).toEqual({
      type: 'tool_search_tool_bm25_20251119',
      name: 'tool_search_tool_bm25',
      cache_control: { type: 'ephemeral' },
    });
    expect(tools.slice(1).every((t) => t.defer_loading === true && !('cache_control' in t))).toBe(true);
    const messages = server.requests[1].body.messages as { role: string; content: Block[] }[];
    expect(messages[1]).toEqual({ role: 'assistant', content: [search, found, toUseSent('toolu_w', 'Rome')] });
    expect(result.steps[0].toolCalls[0]).toMatchObject({ name: 'get_weather', ok: true });
  });

  it('keeps the named tools loaded up front (regex search), the last of them ending the cache breakpoint', async () => {
    server.push('ok');
    const model = anthropic({
      apiKey: 'k',
      model: 'claude-sonnet-4-5',
      baseURL: `${server.url}/v1`,
      toolSearch: { kind: 'regex', keep: ['get_weather'] },
    });
    await model.generate({
      messages: [{ role: 'user', content: 'hi' }],
      tools: [
        { name: 'get_weather', description: 'w', parameters: { type: 'object' } },
        { name: 'crm_tool_0', description: 'c', parameters: { type: 'object' } },
      ],
    });
    expect(server.requests[0].body.tools).toEqual([
      { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' },
      { name: 'get_weather', description: 'w', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } },
      { name: 'crm_tool_0', description: 'c', input_schema: { type: 'object' }, defer_loading: true },
    ]);
    expect(model.capabilities.toolSearch).toBe(true);
  });
});

/** A tool_use block as thinkflow sends it back. */
function toUseSent(id: string, city: string): Block {
  return { type: 'tool_use', id, name: 'get_weather', input: { city } };
}
