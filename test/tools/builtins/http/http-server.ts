import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP server on 127.0.0.1, port 0, for http_get tests. */
export interface TestServer {
  url: string;
  port: number;
  hits: string[];
  close(): Promise<void>;
}

export async function startServer(handler: http.RequestListener): Promise<TestServer> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
