import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { getRequestListener, RequestError } from '@hono/node-server';
import { DEFAULT_LIMITS } from '../health/index.js';
import { type ApiErrorCode, errorBody, errorStatus } from '../http/index.js';

/** Options of `listenHttp`. */
export interface ListenHttpOptions {
  fetch: (request: Request) => Response | Promise<Response>;
  port: number;
  hostname: string;
  /**
   * Milliseconds a client has to send a whole request, headers and body (default 60000): a body that
   * drips in slower gets a 408 and the connection is closed, so it cannot hold a connection for long.
   */
  requestTimeoutMs?: number;
  /** The error body of answers Node and the adapter write themselves (default: the API's JSON error). */
  errorBody?: (code: ApiErrorCode, message: string) => unknown;
}

const REASONS: Partial<Record<ApiErrorCode, string>> = {
  invalid_request: 'Bad Request',
  request_timeout: 'Request Timeout',
  headers_too_large: 'Request Header Fields Too Large',
};

/**
 * Binds `fetch` on a port with @hono/node-server's listener, so that the answers the server writes
 * before any route runs carry the same JSON error as every other: Node's own 431 (headers too large),
 * 400 (a request it cannot parse), 408 and 417, and the adapter's 400 for a Host or URL it refuses. A
 * client that hangs up is dropped without a word.
 */
export function listenHttp(options: ListenHttpOptions): Promise<{ server: Server; port: number }> {
  const body = options.errorBody ?? errorBody;
  // No default host name: a request without `Host` is refused (JSON 400) rather than taken as the bound address.
  const listener = getRequestListener(options.fetch, {
    errorHandler: (error) =>
      error instanceof RequestError
        ? Response.json(body('invalid_request', `The request cannot be read: ${error.message}.`), {
            status: 400,
            headers: { Connection: 'close' },
          })
        : Response.json(body('internal', 'The server failed to handle the request.'), { status: 500 }),
  });
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_LIMITS.requestTimeoutMs;
  const server = createServer(
    {
      requireHostHeader: false,
      requestTimeout,
      headersTimeout: Math.min(60_000, requestTimeout),
      // Node checks the timeouts on this interval (30 s by default, which would stretch a short timeout).
      connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(requestTimeout / 4))),
    },
    listener,
  );
  const answer = (code: ApiErrorCode, text: string) => JSON.stringify(body(code, text));
  server.on('checkExpectation', (_request, response) => {
    const json = answer('expectation_failed', 'The server supports no Expect header other than "100-continue".');
    response.writeHead(417, { 'Content-Type': 'application/json', Connection: 'close' }).end(json);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const message = socket as Socket & { _httpMessage?: { headersSent?: boolean } };
    if (error.code === 'ECONNRESET' || !socket.writable || message._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const [code, text]: [ApiErrorCode, string] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? ['headers_too_large', 'The request headers are larger than the server accepts.']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? ['request_timeout', 'The request took too long to arrive.']
          : ['invalid_request', 'The request is not valid HTTP/1.1.'];
    const json = answer(code, text);
    const status = errorStatus(code);
    socket.end(
      `HTTP/1.1 ${status} ${REASONS[code]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.hostname, () => {
      server.off('error', reject);
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : options.port });
    });
  });
}
