import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type RunningServer, serve } from '../../../src/server/index.js';
import { chunk, rawExchange } from '../raw-http.js';
import { stepsAgent, tempDir } from '../server-fixtures.js';

/** The documented error body. */
const ErrorBody = z.strictObject({
  error: z.strictObject({ message: z.string().min(1), type: z.string(), code: z.string() }),
});

let server: RunningServer;
let dir: ReturnType<typeof tempDir>;
const logged: string[] = [];
beforeAll(async () => {
  dir = tempDir();
  server = await serve({
    config: { agents: { steps: stepsAgent() }, auth: { tokens: ['tok-1'] }, limits: { maxBodyBytes: 1024 } },
    port: 0,
    dataDir: dir.path,
    log: (line) => logged.push(line),
  });
});
afterAll(async () => {
  await server.close();
  dir.cleanup();
});

const auth = { authorization: 'Bearer tok-1' };
const json = { ...auth, 'content-type': 'application/json' };

async function expectJsonError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = ErrorBody.parse(await response.json());
  expect(body.error.code).toBe(code);
  return body.error;
}

describe('every API error is the documented JSON error', () => {
  it('answers JSON for a missing, a wrong and a non-bearer Authorization header', async () => {
    const none = await fetch(`${server.url}/v1/runs/x`);
    await expectJsonError(none, 401, 'unauthorized');
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    const wrong = await fetch(`${server.url}/v1/runs/x`, { headers: { authorization: 'Bearer nope' } });
    expect((await expectJsonError(wrong, 401, 'unauthorized')).message).toContain('not valid');
    expect(wrong.headers.get('www-authenticate')).toContain('invalid_token');
    const basic = await fetch(`${server.url}/v1/runs/x`, { headers: { authorization: 'Basic dTpw' } });
    expect((await expectJsonError(basic, 400, 'invalid_request')).message).toContain('Bearer <token>');
  });

  it('answers JSON for unknown routes, and 405 with Allow for a known route and another method', async () => {
    await expectJsonError(await fetch(`${server.url}/v1/nothing`, { headers: auth }), 404, 'not_found');
    await expectJsonError(await fetch(`${server.url}/elsewhere`), 404, 'not_found');
    const wrongMethod = await fetch(`${server.url}/v1/chat/completions`, { headers: auth });
    expect((await expectJsonError(wrongMethod, 405, 'method_not_allowed')).message).toContain('POST');
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    const deleteRun = await fetch(`${server.url}/v1/runs/abc`, { method: 'DELETE', headers: auth });
    await expectJsonError(deleteRun, 405, 'method_not_allowed');
    expect(deleteRun.headers.get('allow')).toBe('GET');
  });

  it('answers JSON 413 for a body over the limit, with or without Content-Length', async () => {
    const sized = await fetch(`${server.url}/v1/agents/steps/runs`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ input: 'x'.repeat(5000) }),
    });
    await expectJsonError(sized, 413, 'payload_too_large');
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`{"input":"${'x'.repeat(5000)}"}`));
        controller.close();
      },
    });
    const chunked = await fetch(`${server.url}/v1/agents/steps/runs`, {
      method: 'POST',
      headers: json,
      body: stream,
      duplex: 'half',
    } as RequestInit);
    await expectJsonError(chunked, 413, 'payload_too_large');
  });

  it('answers JSON 400 for malformed JSON and for bad query parameters, naming them', async () => {
    const post = (path: string, body: string) => fetch(`${server.url}${path}`, { method: 'POST', headers: json, body });
    expect((await expectJsonError(await post('/v1/agents/steps/runs', '{'), 400, 'invalid_request')).message).toContain(
      'not valid JSON',
    );
    expect(
      (await expectJsonError(await post('/v1/chat/completions', '[1,'), 400, 'invalid_request')).message,
    ).toContain('not valid JSON');
    const wait = await post('/v1/agents/steps/runs?wait=maybe', '{"input":"go"}');
    expect((await expectJsonError(wait, 400, 'invalid_request')).message).toContain('wait');
    const started = await post('/v1/agents/steps/runs?wait=true', '{"input":"go"}');
    const run = (await started.json()) as { id: string };
    const after = await fetch(`${server.url}/v1/runs/${run.id}/events?after=abc`, { headers: auth });
    expect((await expectJsonError(after, 400, 'invalid_request')).message).toContain('after');
    const lastId = await fetch(`${server.url}/v1/runs/${run.id}/events`, {
      headers: { ...auth, 'Last-Event-ID': '-3' },
    });
    await expectJsonError(lastId, 400, 'invalid_request');
  });

  it('answers JSON 500 without details for a thrown error, and logs it with secrets redacted', async () => {
    const other = tempDir();
    const broken = await serve({
      config: { agents: { steps: stepsAgent() } },
      port: 0,
      dataDir: other.path,
      log: (line) => logged.push(line),
    });
    try {
      // A store that fails underneath the API: every read throws.
      broken.store.getRun = () => Promise.reject(new Error('disk gone at postgres://admin:hunter2@db.internal/x'));
      const response = await fetch(`${broken.url}/v1/runs/abc`);
      const error = await expectJsonError(response, 500, 'internal');
      expect(error.message).not.toContain('disk gone');
      const line = logged.find((l) => l.includes('disk gone'));
      expect(line).toBeDefined();
      expect(line).toContain('postgres://admin:[redacted]@db.internal/x');
    } finally {
      broken.store.getRun = () => Promise.resolve(undefined);
      await broken.close();
      other.cleanup();
    }
  });
});

describe('a connection after an early error response', () => {
  const next = 'GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n';
  const big = 'x'.repeat(256 * 1024);
  const post = (headers: string) =>
    `POST /v1/agents/steps/runs HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${headers}\r\n`;

  /** A response that says keep-alive must be followed by the next one; one that says close must end the connection. */
  function expectHonest(exchange: Awaited<ReturnType<typeof rawExchange>>, firstStatus: number) {
    const [first, second] = exchange.responses;
    expect(first.status).toBe(firstStatus);
    ErrorBody.parse(JSON.parse(first.body));
    if (first.headers.connection === 'close') {
      expect(exchange.closedByServer).toBe(true);
      expect(second).toBeUndefined();
    } else {
      expect(second?.status).toBe(200);
    }
  }

  it('closes the connection after a 413 (Content-Length), and says so', async () => {
    const exchange = await rawExchange(server.port, [
      post(`Authorization: Bearer tok-1\r\nContent-Length: ${4 * big.length}\r\n`),
      big,
      big,
      100,
      big,
      big,
      next,
    ]);
    expectHonest(exchange, 413);
    expect(exchange.responses[0].headers.connection).toBe('close');
  });

  it('closes the connection after a 413 for a chunked body without Content-Length, sent slowly', async () => {
    const exchange = await rawExchange(server.port, [
      post('Authorization: Bearer tok-1\r\nTransfer-Encoding: chunked\r\n'),
      chunk(big),
      300,
      chunk(big),
      300,
      chunk(big),
      '0\r\n\r\n',
      next,
    ]);
    expectHonest(exchange, 413);
    expect(exchange.responses[0].headers.connection).toBe('close');
  });

  it('closes the connection after a 401 that left an upload unread', async () => {
    const exchange = await rawExchange(server.port, [
      post(`Authorization: Bearer wrong\r\nContent-Length: ${2 * big.length}\r\n`),
      big,
      300,
      big,
      next,
    ]);
    expectHonest(exchange, 401);
    expect(exchange.responses[0].headers.connection).toBe('close');
  });

  it('keeps the connection after an error that read the whole body', async () => {
    const body = '{"input": ';
    const exchange = await rawExchange(server.port, [
      post(`Authorization: Bearer tok-1\r\nContent-Length: ${body.length}\r\n`),
      body,
      next,
    ]);
    expectHonest(exchange, 400);
    expect(exchange.responses[0].headers.connection).toBe('keep-alive');
    expect(exchange.responses).toHaveLength(2);
    const chunked = await rawExchange(server.port, [
      post('Authorization: Bearer tok-1\r\nTransfer-Encoding: chunked\r\n'),
      chunk(body),
      '0\r\n\r\n',
      next,
    ]);
    expectHonest(chunked, 400);
    expect(chunked.responses).toHaveLength(2);
  });
});
