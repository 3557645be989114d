import { request as httpRequestRaw } from 'node:http';
import { connect } from 'node:net';

/** One response read off a raw connection. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What came back on one connection: the responses in order, and whether the server closed it. */
export interface RawExchange {
  responses: RawResponse[];
  closedByServer: boolean;
}

/** Splits raw HTTP/1.1 bytes into responses (Content-Length or chunked bodies). */
function parseResponses(raw: string): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = raw;
  while (rest.startsWith('HTTP/1.1 ')) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) break;
    const [statusLine, ...lines] = rest.slice(0, headEnd).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    rest = rest.slice(headEnd + 4);
    let body = '';
    if (headers['transfer-encoding'] === 'chunked') {
      for (;;) {
        const sizeEnd = rest.indexOf('\r\n');
        const size = Number.parseInt(rest.slice(0, sizeEnd), 16);
        if (sizeEnd < 0 || Number.isNaN(size)) return out;
        body += rest.slice(sizeEnd + 2, sizeEnd + 2 + size);
        rest = rest.slice(sizeEnd + 2 + size + 2);
        if (size === 0) break;
      }
    } else {
      const length = Number(headers['content-length'] ?? 0);
      body = rest.slice(0, length);
      rest = rest.slice(length);
    }
    out.push({ status: Number(statusLine.split(' ')[1]), headers, body });
  }
  return out;
}

/**
 * Writes `parts` to one TCP connection (a number is a pause in ms) and collects what comes back
 * until the server closes the connection or `settleMs` pass after the last write.
 */
export async function rawExchange(port: number, parts: (string | number)[], settleMs = 1500): Promise<RawExchange> {
  const socket = connect(port, '127.0.0.1');
  let raw = '';
  let closedByServer = false;
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    raw += chunk;
  });
  socket.on('end', () => {
    closedByServer = true;
  });
  // The server may close while the client still writes a body it refused: EPIPE/ECONNRESET is expected.
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  for (const part of parts) {
    if (typeof part === 'number') await new Promise((resolve) => setTimeout(resolve, part));
    else if (!socket.destroyed) socket.write(part, 'latin1');
  }
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, settleMs))]);
  socket.destroy();
  return { responses: parseResponses(raw), closedByServer };
}

/** A chunk of a `Transfer-Encoding: chunked` body. */
export function chunk(data: string): string {
  return `${Buffer.byteLength(data, 'latin1').toString(16)}\r\n${data}\r\n`;
}

/** One request with headers fetch will not send as given (`Host`), over node:http. */
export function httpRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequestRaw(url, { method: init.method ?? 'GET', headers: init.headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) headers[name] = String(value);
        resolve({ status: response.statusCode ?? 0, headers, body });
      });
    });
    request.on('error', reject);
    request.end(init.body);
  });
}
