import type { Context, MiddlewareHandler } from 'hono';
import { concatBytes } from '../../core/index.js';

/** What reading a request body under a byte limit found. */
export type LimitedBody =
  | { ok: true; bytes: Uint8Array<ArrayBuffer> }
  /** Over the limit. `drained`: the rest was read and dropped, so the connection can answer its next request. */
  | { ok: false; drained: boolean };

/** How long the rest of an oversized body may take to be read and dropped (then the connection is closed). */
export const DRAIN_MS = 2000;

/**
 * Reads `request`'s body, up to `maxBytes`. A Content-Length over the limit is refused unread. A chunked
 * body found over the limit is read on and dropped up to as much again (and `DRAIN_MS`), so that the
 * 413 can keep the connection:
 * an unread rest would hold the next request behind it, and a socket closed on unread bytes is reset,
 * which can wipe out the answer before a client that writes its whole body first ever reads it.
 * A rest larger or slower than that is left unread: the caller answers with `Connection: close`.
 */
export async function readLimitedBody(request: Request, maxBytes: number): Promise<LimitedBody> {
  if (!request.body) return { ok: true, bytes: new Uint8Array(0) };
  const declared = declaredLength(request);
  // A declared size over the limit is refused before anything is read: the client knows what it sent.
  if (declared !== undefined && declared > maxBytes) return { ok: false, drained: false };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) return { ok: false, drained: await drain(reader, size, 2 * maxBytes) };
    chunks.push(value);
  }
  return { ok: true, bytes: concatBytes(chunks, size) };
}

/** The Content-Length a request declares, when its body is not chunked. */
function declaredLength(request: Request): number | undefined {
  const length = request.headers.get('content-length');
  if (length === null || request.headers.has('transfer-encoding')) return undefined;
  const value = Number(length);
  return Number.isFinite(value) ? value : undefined;
}

/** Reads and drops the rest of a body while it stays under `cap` bytes and `DRAIN_MS`; whether it ended. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, read: number, cap: number): Promise<boolean> {
  let size = read;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), DRAIN_MS);
  });
  try {
    while (size <= cap) {
      const next = await Promise.race([reader.read(), late]);
      if (next === 'late') return false;
      if (next.done) return true;
      size += next.value.byteLength;
    }
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** `response` with `Connection: close` (for an answer that left part of the request body unread). */
export function withConnectionClose(response: Response): Response {
  try {
    response.headers.set('Connection', 'close');
    return response;
  } catch {
    // Immutable headers (a Response passed through from fetch): copy it.
    const copy = new Response(response.body, response);
    copy.headers.set('Connection', 'close');
    return copy;
  }
}

/** Options of `limitBody`. */
export interface LimitBodyOptions {
  maxBytes: number;
  /** The 413 in the surface's own shape (the API's JSON error; JSON-RPC's error for A2A). */
  tooLarge: (c: Context) => Response;
}

/**
 * Bounds every request body to `maxBytes` (413 above it, chunked or not). The body is read here,
 * once, so the routes after it read it from memory; an oversized body is drained when that is cheap
 * (see `readLimitedBody`), and the answer says `Connection: close` when it was not.
 */
export function limitBody(options: LimitBodyOptions): MiddlewareHandler {
  return async (c, next) => {
    const request = c.req.raw;
    if (!request.body) return next();
    const read = await readLimitedBody(request, options.maxBytes);
    if (!read.ok) return read.drained ? options.tooLarge(c) : withConnectionClose(options.tooLarge(c));
    c.req.raw = new Request(request, { body: read.bytes });
    return next();
  };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * A body's text, or undefined when it is not UTF-8. `request.text()` would put U+FFFD in place of the
 * bad bytes, and a run would start on an input the client never sent.
 */
export async function bodyText(body: Pick<Request, 'arrayBuffer'>): Promise<string | undefined> {
  return decodeUtf8(await body.arrayBuffer());
}

/** `bytes` as UTF-8 text, or undefined when they are not UTF-8. */
export function decodeUtf8(bytes: ArrayBuffer | Uint8Array): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}
