// The MCP endpoint's answers to bodies over its 4 MiB limit, not UTF-8, compressed or nested too deep,
// over raw sockets: JSON-RPC errors, and a connection that answers its next request or closes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type McpHttpServing, serveMcp } from '../../../src/server/index.js';
import { calculatorTool } from '../../../src/tools/index.js';
import { chunk, rawExchange } from '../raw-http.js';

const RpcErrorBody = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.null(), z.number(), z.string()]),
  error: z.object({ code: z.number().int(), message: z.string().min(1) }),
});

let serving: McpHttpServing;
let port: number;
beforeAll(async () => {
  serving = await serveMcp([calculatorTool], { transport: 'http', port: 0 });
  port = Number(new URL(serving.url).port);
});
afterAll(async () => {
  await serving.close();
});

const head = (headers: string) =>
  `POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${headers}\r\n`;
/** The next request on the connection (405 JSON-RPC: a GET needs a session), asking the server to close after it. */
const NEXT = 'GET /mcp HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n';

function chunked(bytes: number): string {
  const piece = 'x'.repeat(64 * 1024);
  const parts: string[] = [];
  for (let sent = 0; sent < bytes; sent += piece.length) parts.push(chunk(piece));
  return `${parts.join('')}0\r\n\r\n`;
}

describe('MCP over streamable HTTP, at the edges of a body', { timeout: 30_000 }, () => {
  it('answers a chunked body over 4 MiB with a JSON-RPC 413, then answers the next request', async () => {
    const exchange = await rawExchange(port, [
      head('Transfer-Encoding: chunked\r\n'),
      chunked(5 * 1024 * 1024),
      300,
      NEXT,
    ]);
    const [first, second] = exchange.responses;
    expect(first.status).toBe(413);
    expect(RpcErrorBody.parse(JSON.parse(first.body)).error.code).toBe(-32000);
    expect(first.headers.connection).toBe('keep-alive');
    expect(second?.status).toBe(405);
  });

  it('answers a chunked body far over the limit with Connection: close, and closes', async () => {
    const exchange = await rawExchange(port, [
      head('Transfer-Encoding: chunked\r\n'),
      chunked(9 * 1024 * 1024),
      300,
      NEXT,
    ]);
    // The rest is left unread and the connection closed: the next request is never taken. (On a loaded
    // machine the reset of a socket closed over unread bytes can wipe out the 413 itself: see docs/server.md.)
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.responses.length).toBeLessThanOrEqual(1);
    for (const response of exchange.responses) {
      expect(response.status).toBe(413);
      expect(response.headers.connection).toBe('close');
    }
  });

  it('answers a body that is not UTF-8 with a parse error, a nesting bomb with Invalid Request', async () => {
    const bad = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"\xff"}}';
    const notUtf8 = await rawExchange(port, [head(`Content-Length: ${bad.length}\r\n`), bad, NEXT]);
    expect(notUtf8.responses[0].status).toBe(400);
    expect(RpcErrorBody.parse(JSON.parse(notUtf8.responses[0].body)).error.message).toContain('UTF-8');
    expect(notUtf8.responses[1]?.status).toBe(405);
    const deep = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const bomb = await rawExchange(port, [head(`Content-Length: ${deep.length}\r\n`), deep, NEXT]);
    expect(bomb.responses[0].status).toBe(400);
    expect(RpcErrorBody.parse(JSON.parse(bomb.responses[0].body)).error.code).toBe(-32600);
  });

  it('answers a compressed body with a JSON-RPC 415 naming Content-Encoding', async () => {
    const gz = '\x1f\x8b\x08\x00'.padEnd(32, '\0');
    const exchange = await rawExchange(port, [
      head(`Content-Encoding: gzip\r\nContent-Length: ${gz.length}\r\n`),
      gz,
      NEXT,
    ]);
    expect(exchange.responses[0].status).toBe(415);
    expect(RpcErrorBody.parse(JSON.parse(exchange.responses[0].body)).error.message).toContain('Content-Encoding');
  });
});
