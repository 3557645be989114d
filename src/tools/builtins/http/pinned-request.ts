import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';
import type { ResolvedAddress } from './check-url.js';

/** What one HTTP exchange returned: its status, headers, and a body cut at `maxBytes`. */
export interface PinnedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body was longer than `maxBytes` and was cut. */
  truncated: boolean;
}

export interface PinnedRequestOptions {
  url: URL;
  pinned: ResolvedAddress;
  maxBytes: number;
  signal: AbortSignal;
}

/**
 * One GET to `url` that connects only to `pinned` (the address the policy checked): the socket's lookup
 * is replaced, so a second DNS answer (rebinding) is never used. TLS still verifies the certificate against
 * the host name. Each call opens its own connection (no keep-alive pool). Compressed bodies are decoded with the same byte cap, so a zip bomb stops at `maxBytes`.
 * Every failure (a connect refused or unreachable at once, a reset mid-body, a corrupt gzip stream) rejects
 * the promise; none is left as an unhandled `'error'` event that would end the process.
 */
export function pinnedRequest(options: PinnedRequestOptions): Promise<PinnedResponse> {
  const { url, pinned, maxBytes, signal } = options;
  // Answered on a later turn of the event loop, like a real DNS lookup: a synchronous answer lets a connect
  // that fails at once (ENETUNREACH) destroy the socket before http has attached its error handler, and
  // before tls has set the server name (`Cannot read properties of null (reading 'setServername')`).
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    setImmediate(() => {
      if (lookupOptions.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
      else callback(null, pinned.address, pinned.family);
    });
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(url, {
      method: 'GET',
      lookup,
      // A fresh connection per call. The global agent keeps sockets alive between calls, and a server that
      // closes an idle one as the next call reuses it fails a good URL with ECONNRESET; a pooled socket is
      // also bound to whatever address an earlier call was pinned to.
      agent: false,
      signal,
      headers: {
        'user-agent': 'thinkflow-http-get/0.1',
        accept: 'text/html,text/plain,application/json,*/*;q=0.5',
        'accept-encoding': 'gzip, deflate, br',
      },
    });
    request.on('error', reject);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const body = decoded(response, (error) => {
        if (!truncated) reject(error);
      });
      const finish = () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
          truncated,
        });
      body.on('data', (chunk: Buffer) => {
        if (truncated) return;
        const room = maxBytes - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          truncated = true;
          response.destroy();
          finish();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      body.on('end', () => {
        if (!truncated) finish();
      });
    });
    request.end();
  });
}

const DECODERS: Record<string, () => zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/**
 * The body stream, decoded when compressed. `pipeline` (not `pipe`) carries an error of either side (a reset
 * mid-body, a corrupt stream) to `onError` and destroys both, so a cut connection never leaves the decoder waiting.
 */
function decoded(
  response: http.IncomingMessage,
  onError: (error: Error) => void,
): NodeJS.ReadableStream & NodeJS.EventEmitter {
  const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
  const decoder = DECODERS[encoding]?.();
  if (!decoder) {
    response.on('error', onError);
    response.on('aborted', () => onError(new Error('The connection was closed before the whole body arrived.')));
    return response;
  }
  return pipeline(response, decoder, (error) => {
    if (error) onError(error);
  });
}
