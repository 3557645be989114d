import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type McpServing, serveMcp } from '../../../src/server/index.js';
import { calculatorTool, defineTool } from '../../../src/tools/index.js';
import { rawExchange } from '../raw-http.js';

const slow = defineTool({
  name: 'slow',
  description: 'Never finishes in time.',
  input: z.object({}),
  timeoutMs: 50,
  run: () => new Promise(() => undefined),
});
const boom = defineTool({
  name: 'boom',
  description: 'Throws.',
  input: z.object({ why: z.string() }),
  run: ({ why }) => {
    throw new Error(`exploded: ${why}`);
  },
});
const gated = defineTool({
  name: 'gated',
  description: 'Needs approval.',
  input: z.object({}),
  needsApproval: true,
  run: () => 'ran',
});
const structured = defineTool({
  name: 'structured',
  description: 'Returns an object.',
  input: z.object({ n: z.number() }),
  run: ({ n }) => ({ double: n * 2 }),
});

describe('serveMcp over streamable HTTP, used by the SDK client', { timeout: 30_000 }, () => {
  let serving: McpServing;
  let client: Client;
  beforeAll(async () => {
    serving = await serveMcp([calculatorTool, slow, boom, gated, structured], { transport: 'http', port: 0 });
    client = new Client({ name: 'sdk-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serving.url ?? '')));
  });
  afterAll(async () => {
    await client.close();
    await serving.close();
  });

  const text = (result: Awaited<ReturnType<Client['callTool']>>) =>
    (result.content as Array<{ type: string; text: string }>).map((b) => b.text).join('');

  it('binds 127.0.0.1 on a free port and lists the tools with their JSON Schemas', async () => {
    expect(serving.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['calculator', 'slow', 'boom', 'gated', 'structured']);
    expect(tools[4].inputSchema).toMatchObject({ type: 'object', properties: { n: { type: 'number' } } });
  });

  it('runs a tool and returns its output as text', async () => {
    const calculator = (await client.listTools()).tools[0];
    const key = Object.keys(calculator.inputSchema.properties ?? {})[0];
    const result = await client.callTool({ name: 'calculator', arguments: { [key]: '6 * 7' } });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain('42');
    expect(JSON.parse(text(await client.callTool({ name: 'structured', arguments: { n: 4 } })))).toEqual({ double: 8 });
  });

  it('returns validation errors as isError results the caller can fix', async () => {
    const result = await client.callTool({ name: 'structured', arguments: { n: 'four' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/n/);
  });

  it('returns tool throws, timeouts, approvals and unknown tools as isError results', async () => {
    const thrown = await client.callTool({ name: 'boom', arguments: { why: 'test' } });
    expect(thrown.isError).toBe(true);
    expect(text(thrown)).toBe('Tool "boom" failed: exploded: test');
    const timedOut = await client.callTool({ name: 'slow', arguments: {} });
    expect(text(timedOut)).toBe('Tool "slow" timed out after 50 ms.');
    const denied = await client.callTool({ name: 'gated', arguments: {} });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toMatch(/needs a person's approval/);
    const unknown = await client.callTool({ name: 'nope', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/Unknown tool "nope"\. Available: calculator, slow/);
  });

  it('answers 404 off the MCP path as a JSON-RPC error, like the SDK answers its own HTTP errors', async () => {
    const response = await fetch(new URL('/other', serving.url));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Not found: the MCP endpoint is /mcp, not /other.' },
      id: null,
    });
  });

  it('closes the connection after refusing a body it did not read', async () => {
    const { port } = new URL(serving.url ?? '');
    const big = 'x'.repeat(5 * 1024 * 1024);
    const exchange = await rawExchange(Number(port), [
      `POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${big.length}\r\n\r\n`,
      big,
      'GET /other HTTP/1.1\r\nHost: localhost\r\n\r\n',
    ]);
    expect(exchange.responses[0].status).toBe(413);
    expect(exchange.responses[0].headers.connection).toBe('close');
    expect(exchange.closedByServer).toBe(true);
  });
});
