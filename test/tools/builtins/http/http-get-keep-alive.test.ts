import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGetTool } from '../../../../src/tools/builtins/http/http-get-tool.js';
import { runTool } from '../run-tool.js';

/**
 * A raw server that answers the first request on each connection with `Connection: keep-alive` and
 * keeps the socket open, then resets the connection when a second request arrives on it: what a server
 * that closes idle keep-alive sockets does when its close crosses the client's next request. Making the
 * close wait for the reuse turns the race into a certainty.
 */
let server: net.Server;
let port = 0;
let connections = 0;
let resets = 0;

beforeAll(async () => {
  server = net.createServer((socket) => {
    connections += 1;
    let requests = 0;
    let buffered = '';
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      while (buffered.includes('\r\n\r\n')) {
        buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4);
        requests += 1;
        if (requests > 1) {
          resets += 1;
          socket.resetAndDestroy();
          return;
        }
        const body = 'hello from a keep-alive server';
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: ${body.length}\r\nconnection: keep-alive\r\nkeep-alive: timeout=60\r\n\r\n${body}`,
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('http_get and keep-alive sockets the server closes', () => {
  it('fetches a good URL every time, never on a socket an earlier call left open', async () => {
    const tool = httpGetTool({ allowPrivateNetwork: true });
    for (let call = 0; call < 4; call++) {
      const text = (await runTool(tool, { url: `http://127.0.0.1:${port}/page?n=${call}` })) as string;
      expect(text).toContain('hello from a keep-alive server');
    }
    // A fresh connection per call: no second request ever reached a used socket.
    expect(resets).toBe(0);
    expect(connections).toBe(4);
  });
});
