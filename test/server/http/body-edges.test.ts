// What a hostile or careless client sends to the routes that take a body, over raw sockets against the
// real listener: every answer is a clear 4xx in the route's error shape, and the connection either
// answers its next request or says `Connection: close` and closes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createStep, createWorkflow } from '../../../src/entries/workflow.js';
import { type RunningServer, serve } from '../../../src/server/index.js';
import { chunk, type RawExchange, rawExchange } from '../raw-http.js';
import { stepsAgent, tempDir } from '../server-fixtures.js';

const ErrorBody = z.strictObject({
  error: z.strictObject({ message: z.string().min(1), type: z.string(), code: z.string() }),
});
const RpcErrorBody = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.null(),
  error: z.object({ code: z.number().int(), message: z.string().min(1) }),
});

const double = createStep({ id: 'double', input: z.number(), output: z.number(), run: (n) => n * 2 });
const twice = createWorkflow({ id: 'twice', input: z.number(), output: z.number() }).then(double).commit();

let server: RunningServer;
let dir: ReturnType<typeof tempDir>;
beforeAll(async () => {
  dir = tempDir();
  server = await serve({
    config: {
      agents: { steps: stepsAgent({ toolSteps: 0 }) },
      hooks: { ticket: { agent: 'steps' } },
      workflows: { twice },
      limits: { requestTimeoutMs: 1500 },
    },
    port: 0,
    dataDir: dir.path,
    log: () => {},
  });
});
afterAll(async () => {
  await server.close();
  dir.cleanup();
});

/** The next request on the same connection; it asks the server to close after it, so the exchange ends. */
const NEXT = 'GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n';
const head = (path: string, headers: string) =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${headers}\r\n`;

/** A chunked body of `bytes` bytes in 64 KiB chunks, with its last chunk. */
function chunked(bytes: number): string {
  const piece = 'x'.repeat(64 * 1024);
  const parts: string[] = [];
  for (let sent = 0; sent < bytes; sent += piece.length) parts.push(chunk(piece));
  return `${parts.join('')}0\r\n\r\n`;
}

/** The connection is honest: it answered the next request, or said `close` and closed. */
function expectUsableOrClosed(exchange: RawExchange) {
  const [first, second] = exchange.responses;
  if (first.headers.connection === 'close') {
    expect(exchange.closedByServer).toBe(true);
    expect(second).toBeUndefined();
  } else {
    expect(second?.status).toBe(200);
  }
}

const BODY_ROUTES = [
  '/v1/agents/steps/runs',
  '/v1/chat/completions',
  '/v1/responses',
  '/v1/agents/steps/ui-stream',
  '/v1/agents/steps/ag-ui',
  '/v1/agents/steps/replay',
  '/v1/sessions/s1/runs',
  '/v1/hooks/ticket',
  '/v1/workflows/twice/runs',
  '/v1/runs/r1/approvals',
  '/v1/runs/r1/cancel',
  '/v1/runs/r1/fork',
  '/v1/runs/r1/resume',
];

describe('a chunked body of 1.5 MiB, over the 1 MiB limit, without a Content-Length', () => {
  const body = chunked(1.5 * 1024 * 1024);

  it.each(BODY_ROUTES)('%s answers 413 with the JSON error, then answers the next request', async (path) => {
    const exchange = await rawExchange(server.port, [head(path, 'Transfer-Encoding: chunked\r\n'), body, 300, NEXT]);
    const [first, second] = exchange.responses;
    expect(first.status).toBe(413);
    expect(ErrorBody.parse(JSON.parse(first.body)).error.code).toBe('payload_too_large');
    // The rest was read and dropped: the connection goes on.
    expect(first.headers.connection).toBe('keep-alive');
    expect(second?.status).toBe(200);
  });

  it('/a2a/steps answers 413 with a JSON-RPC error, then answers the next request', async () => {
    const exchange = await rawExchange(server.port, [
      head('/a2a/steps', 'Transfer-Encoding: chunked\r\n'),
      body,
      300,
      NEXT,
    ]);
    const [first, second] = exchange.responses;
    expect(first.status).toBe(413);
    expect(RpcErrorBody.parse(JSON.parse(first.body)).error.code).toBe(-32600);
    expect(second?.status).toBe(200);
  });

  it('a body far over the limit answers 413 with Connection: close, and the server closes', async () => {
    const exchange = await rawExchange(server.port, [
      head('/v1/chat/completions', 'Transfer-Encoding: chunked\r\n'),
      chunked(3 * 1024 * 1024),
      300,
      NEXT,
    ]);
    // The rest is left unread and the connection closed (on a loaded machine the reset of a socket closed
    // over unread bytes can wipe out the 413 itself: see docs/server.md), never kept for a next request.
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.responses.length).toBeLessThanOrEqual(1);
    for (const response of exchange.responses) {
      expect(response.status).toBe(413);
      expect(response.headers.connection).toBe('close');
    }
  });
});

describe('the neighbours: bodies that drip, lie, are compressed, are not UTF-8, or are empty', () => {
  it('a body that drips slower than requestTimeoutMs answers 408 JSON and the connection closes', async () => {
    const exchange = await rawExchange(
      server.port,
      [head('/v1/chat/completions', 'Content-Length: 200\r\n'), '{"model"', 700, ':', 700, '"steps"', 700, ','],
      3000,
    );
    expect(exchange.responses).toHaveLength(1);
    expect(exchange.responses[0].status).toBe(408);
    expect(ErrorBody.parse(JSON.parse(exchange.responses[0].body)).error.code).toBe('request_timeout');
    expect(exchange.closedByServer).toBe(true);
  });

  it('a Content-Length longer than the body sent answers 408 once the timeout passes', async () => {
    const exchange = await rawExchange(
      server.port,
      [head('/v1/agents/steps/runs', 'Content-Length: 50\r\n'), '{}'],
      3000,
    );
    expect(exchange.responses.map((r) => r.status)).toEqual([408]);
    expect(exchange.closedByServer).toBe(true);
  });

  it('a Content-Length shorter than the body: the rest is a request Node cannot read, answered 400 JSON and closed', async () => {
    const sent = '{"input":"hi"}';
    const exchange = await rawExchange(server.port, [
      head('/v1/agents/steps/runs', 'Content-Length: 2\r\n'),
      `${sent}\r\n`,
    ]);
    // Node may refuse the rest before the route answers the first two bytes: one JSON 400 or two, then the close.
    expect(exchange.responses.length).toBeGreaterThanOrEqual(1);
    for (const response of exchange.responses) {
      expect(response.status).toBe(400);
      ErrorBody.parse(JSON.parse(response.body));
    }
    expect(exchange.responses.at(-1)?.headers.connection).toBe('close');
    expect(exchange.closedByServer).toBe(true);
  });

  it('a gzip or deflate body answers 415 naming Content-Encoding (nothing is inflated)', async () => {
    for (const coding of ['gzip', 'deflate']) {
      const bomb = '\x1f\x8b\x08\x00'.padEnd(64, '\0');
      const exchange = await rawExchange(server.port, [
        head('/v1/chat/completions', `Content-Encoding: ${coding}\r\nContent-Length: ${bomb.length}\r\n`),
        bomb,
        NEXT,
      ]);
      const [first] = exchange.responses;
      expect(first.status).toBe(415);
      expect(first.headers['accept-encoding']).toBe('identity');
      expect(ErrorBody.parse(JSON.parse(first.body)).error.message).toContain('Content-Encoding');
      expectUsableOrClosed(exchange);
    }
  });

  it('a body that is not UTF-8 answers 400 instead of starting a run on replacement characters', async () => {
    const body = '{"model":"steps","messages":[{"role":"user","content":"caf\xe9 \xff"}]}';
    const exchange = await rawExchange(server.port, [
      head('/v1/chat/completions', `Content-Length: ${body.length}\r\n`),
      body,
      NEXT,
    ]);
    const [first, second] = exchange.responses;
    expect(first.status).toBe(400);
    expect(ErrorBody.parse(JSON.parse(first.body)).error.message).toContain('UTF-8');
    expect(second?.status).toBe(200);
    const a2a = '{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":"\xff"}}';
    const rpc = await rawExchange(server.port, [head('/a2a/steps', `Content-Length: ${a2a.length}\r\n`), a2a, NEXT]);
    expect(RpcErrorBody.parse(JSON.parse(rpc.responses[0].body)).error.code).toBe(-32700);
  });

  it('an empty body and a wrong Content-Type answer 400 and 415 and keep the connection', async () => {
    const empty = await rawExchange(server.port, [head('/v1/chat/completions', 'Content-Length: 0\r\n'), NEXT]);
    expect(empty.responses.map((r) => r.status)).toEqual([400, 200]);
    const text = 'hello';
    const wrong = await rawExchange(server.port, [
      `POST /v1/agents/steps/runs HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: ${text.length}\r\n\r\n`,
      text,
      NEXT,
    ]);
    expect(wrong.responses[0].status).toBe(415);
    expectUsableOrClosed(wrong);
  });

  it('A2A answers a nesting bomb with JSON-RPC -32600, not an internal error', async () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"message/send","params":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const exchange = await rawExchange(server.port, [
      head('/a2a/steps', `Content-Length: ${deep.length}\r\n`),
      deep,
      NEXT,
    ]);
    const [first, second] = exchange.responses;
    expect(first.status).toBe(200);
    expect(RpcErrorBody.parse(JSON.parse(first.body)).error.code).toBe(-32600);
    expect(second?.status).toBe(200);
  });
});
