import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './protocol-fixtures.js';

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

/** One raw JSON-RPC POST to the `helper` agent's A2A endpoint, as the A2A conformance kit sends them. */
async function rpc(body: unknown): Promise<{ status: number; json: { id?: unknown; error?: { code: number } } }> {
  const response = await fetch(`${server.url}/a2a/helper`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

describe('A2A JSON-RPC errors', () => {
  it.each([
    ['a wrong jsonrpc version', { jsonrpc: '1.0', id: 7, method: 'SendMessage', params: {} }, 7],
    ['no jsonrpc at all', { id: 'a', method: 'message/send', params: {} }, 'a'],
    ['no method', { jsonrpc: '2.0', id: 'x-1', params: {} }, 'x-1'],
    ['a method that is not a string', { jsonrpc: '2.0', id: 0, method: 42 }, 0],
  ])('answers an invalid request with %s with -32600 and its id', async (_, body, id) => {
    const { status, json } = await rpc(body);
    expect(status).toBe(200);
    expect(json).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32600 } });
  });

  it('answers id null when the request has no id, or one JSON-RPC does not allow', async () => {
    expect((await rpc({ jsonrpc: 'aaa', method: 'SendMessage', params: {} })).json).toMatchObject({
      id: null,
      error: { code: -32600 },
    });
    expect((await rpc({ jsonrpc: '2.0', method: 'SendMessage', id: { bad: 'type' } })).json).toMatchObject({
      id: null,
      error: { code: -32600 },
    });
    expect((await rpc('{"jsonrpc": "2.0", "id": 3, "method": "SendMessage"')).json).toMatchObject({
      id: null,
      error: { code: -32700 },
    });
  });

  it.each(['SendMessageXXX', 'nonexistent/method', 'toString', 'constructor', '__proto__', 'hasOwnProperty'])(
    'answers the unknown method %s with -32601 and its id',
    async (method) => {
      const { json } = await rpc({ jsonrpc: '2.0', id: 'm', method, params: {} });
      expect(json).toMatchObject({ jsonrpc: '2.0', id: 'm', error: { code: -32601 } });
    },
  );

  it('answers params of the wrong shape with -32602 and its id', async () => {
    const { json } = await rpc({ jsonrpc: '2.0', method: 'SendMessage', id: '4', params: { '': 'not_a_dict' } });
    expect(json).toMatchObject({ id: '4', error: { code: -32602 } });
  });
});
