import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModelResponse } from '../../../src/index.js';

/** What the scripted server does for one request. */
export type WireReply =
  /** A whole body (a string is sent as-is, anything else as JSON). */
  | { kind: 'json'; status?: number; headers?: Record<string, string>; body: unknown }
  /** A streamed body: each piece is written as-is, with an optional pause between pieces. */
  | {
      kind: 'stream';
      status?: number;
      contentType?: string;
      pieces: string[];
      pauseMs?: number;
      hang?: boolean;
      /** Called once each piece is written, with its index. */
      onPiece?: (index: number) => void;
    }
  /** Accept the request and never answer. */
  | { kind: 'hang' }
  /** A neutral reply, written in the vendor's format (JSON or streamed, as the request asked). */
  | { kind: 'reply'; response: ModelResponse };

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/** Formats a neutral reply in one vendor's wire format. */
export type WireFormat = (response: ModelResponse, request: RecordedRequest) => WireReply;

export interface WireServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  requests: RecordedRequest[];
  /** Queue replies, served one per request in order. */
  push(...replies: (WireReply | ModelResponse | string)[]): void;
  /** Forget queued replies and recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 (port 0) that answers from a queue. Plain ModelResponses and
 * strings are formatted by the vendor's `format`; an empty queue answers 500.
 */
export async function startWireServer(format: WireFormat): Promise<WireServer> {
  const queue: WireReply[] = [];
  const requests: RecordedRequest[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();

  const server = createServer(async (req, res) => {
    const text = await readBody(req);
    let body: Record<string, unknown> = {};
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      body = { _raw: text };
    }
    const recorded: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
    requests.push(recorded);
    let reply = queue.shift() ?? {
      kind: 'json',
      status: 500,
      body: { error: { message: 'test server: queue empty' } },
    };
    if (reply.kind === 'reply') reply = format(reply.response, recorded);
    await send(reply, res, timers);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    push(...replies) {
      for (const reply of replies) {
        if (typeof reply === 'string') queue.push({ kind: 'reply', response: { text: reply } });
        else if ('kind' in reply) queue.push(reply);
        else queue.push({ kind: 'reply', response: reply });
      }
    },
    reset() {
      queue.length = 0;
      requests.length = 0;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => resolve(text));
  });
}

async function send(reply: WireReply, res: ServerResponse, timers: Set<ReturnType<typeof setTimeout>>) {
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });
  switch (reply.kind) {
    case 'hang':
      return;
    case 'json': {
      const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(body);
      return;
    }
    case 'stream': {
      res.writeHead(reply.status ?? 200, {
        'content-type': reply.contentType ?? 'text/event-stream',
        'cache-control': 'no-cache',
      });
      res.flushHeaders();
      for (const [index, piece] of reply.pieces.entries()) {
        if (res.destroyed) return;
        res.write(piece);
        reply.onPiece?.(index);
        if (reply.pauseMs) await pause(reply.pauseMs);
      }
      if (!reply.hang) res.end();
      return;
    }
    case 'reply':
      throw new Error('reply must be formatted before sending');
  }
}
