// The answers the server writes before or around a route (Node's 431/400, the adapter's 400, a deep
// body, a client that hangs up) are the documented JSON error, and a hang-up is one log line.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type RunningServer, serve } from '../../../src/server/index.js';
import { rawExchange } from '../raw-http.js';
import { stepsAgent, tempDir } from '../server-fixtures.js';
import { eventually } from '../spawn-server.js';

const ErrorBody = z.strictObject({
  error: z.strictObject({ message: z.string().min(1), type: z.string(), code: z.string() }),
});

let server: RunningServer;
let dir: ReturnType<typeof tempDir>;
const logged: string[] = [];
beforeAll(async () => {
  dir = tempDir();
  server = await serve({
    config: { agents: { steps: stepsAgent({ toolSteps: 0 }) }, hooks: { ticket: { agent: 'steps' } } },
    port: 0,
    dataDir: dir.path,
    log: (line) => logged.push(line),
  });
});
afterAll(async () => {
  await server.close();
  dir.cleanup();
});

async function one(raw: string) {
  const { responses } = await rawExchange(server.port, [raw], 1000);
  expect(responses).toHaveLength(1);
  const [response] = responses;
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return { status: response.status, error: ErrorBody.parse(JSON.parse(response.body)).error };
}

describe("the server's own answers are the JSON error", () => {
  it('answers 431 JSON for headers over the limit', async () => {
    const { status, error } = await one(
      `GET /health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`,
    );
    expect(status).toBe(431);
    expect(error.code).toBe('headers_too_large');
  });

  it('answers 400 JSON for a request Node cannot parse and for a Host the adapter refuses', async () => {
    const garbled = await one('GET /health HTTP/1.1\r\nHost localhost\r\n\r\n');
    expect(garbled.status).toBe(400);
    expect(garbled.error.code).toBe('invalid_request');
    const host = await one('GET /health HTTP/1.1\r\nHost: bad^host\r\n\r\n');
    expect(host.status).toBe(400);
    expect(host.error.code).toBe('invalid_request');
    const noHost = await one('GET /health HTTP/1.1\r\n\r\n');
    expect(noHost.status).toBe(400);
    expect(noHost.error.message).toContain('host');
    const expectation = await one('GET /health HTTP/1.1\r\nHost: localhost\r\nExpect: fancy\r\n\r\n');
    expect(expectation.status).toBe(417);
  });

  it('answers a deeply nested hook payload with a 400 naming the limit, not an internal RangeError', async () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    const { status, error } = await one(
      `POST /v1/hooks/ticket HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${deep.length}\r\n\r\n${deep}`,
    );
    expect(status).toBe(400);
    expect(error.message).toContain('nested deeper than 100 levels');
    expect(error.message).not.toMatch(/RangeError|call stack/);
    expect((await server.runs.list({ limit: 10 })).runs).toEqual([]);
  });

  it('logs a client that hangs up mid-body as one line, without a stack trace', async () => {
    const before = logged.length;
    const socket = connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      'POST /v1/agents/steps/runs HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"input":',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    const lines = await eventually(() => (logged.length > before ? logged.slice(before) : undefined));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const all = logged.slice(before);
    expect(all, lines.join('\n')).toHaveLength(1);
    expect(all[0]).toContain('closed the connection');
    expect(all[0]).not.toContain('\n');
    expect(all[0]).not.toMatch(/\bat \S+ \(/);
  });
});
