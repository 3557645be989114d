import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpServing, serveMcp } from '../../../src/server/index.js';
import { calculatorTool } from '../../../src/tools/index.js';

let serving: McpServing;
beforeAll(async () => {
  serving = await serveMcp([calculatorTool], { transport: 'http', port: 0 });
});
afterAll(() => serving?.close());

/** One raw JSON-RPC POST to the endpoint (in a session when `session` is given). */
async function post(body: unknown, session?: string) {
  const response = await fetch(serving.url ?? '', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}),
    },
    body: JSON.stringify(body),
  });
  return { response, json: response.headers.get('content-type')?.includes('json') ? await response.json() : undefined };
}

const INVALID: Array<[string, unknown, string | number | null]> = [
  ['a wrong jsonrpc version', { jsonrpc: '1.0', id: 7, method: 'tools/list' }, 7],
  ['no method', { jsonrpc: '2.0', id: 'x-1', params: {} }, 'x-1'],
  ['a method that is not a string', { jsonrpc: '2.0', id: 0, method: 42 }, 0],
  ['an id JSON-RPC does not allow', { jsonrpc: '2.0', id: { bad: 1 }, method: 'tools/list' }, null],
  ['an empty batch', [], null],
];

describe('MCP JSON-RPC errors', () => {
  it.each(INVALID)('answers an invalid request with %s with -32600 and its id', async (_, body, id) => {
    const { response, json } = await post(body);
    expect(response.status).toBe(400);
    expect(json).toEqual({
      jsonrpc: '2.0',
      id,
      error: { code: -32600, message: expect.stringMatching(/^Invalid Request/) },
    });
  });

  it('answers the same inside a session, and an unknown method with -32601 and its id', async () => {
    const init = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const session = init.response.headers.get('mcp-session-id') ?? '';
    expect(session).not.toBe('');
    await init.response.body?.cancel();
    const bad = await post({ jsonrpc: '1.0', id: 'in-session', method: 'tools/list' }, session);
    expect(bad.json).toMatchObject({ id: 'in-session', error: { code: -32600 } });
    const unknown = await post({ jsonrpc: '2.0', id: 9, method: 'tools/nope' });
    expect(unknown.json).toMatchObject({ id: 9, error: { code: -32601 } });
  });
});
