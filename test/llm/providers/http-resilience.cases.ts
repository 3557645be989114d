import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Model, ModelChunk, ModelError, RetryOptions } from '../../../src/index.js';
import type { WireServer } from './wire-server.js';

/** The per-vendor pieces the shared resilience cases need. */
export interface ResilienceCase {
  name: string;
  start(): Promise<WireServer>;
  createModel(
    server: WireServer,
    options: { apiKey: string; maxRetries: number; timeoutMs: number; retry: RetryOptions },
  ): Model;
  /** The vendor's error body carrying `message`. */
  errorBody(message: string): unknown;
  /** The first pieces of a streamed reply of `text`, enough to yield at least two text deltas. */
  streamStart(text: string): string[];
  /** A streamed line that is not valid JSON, in the vendor's framing. */
  brokenLine: string;
  contentType?: string;
}

const API_KEY = 'key-NEVER-SHOW-ME-0123456789';
const user = [{ role: 'user' as const, content: 'hi' }];

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (error) {
    return error as ModelError;
  }
  throw new Error('expected the call to fail');
}

async function drain(stream: AsyncIterable<ModelChunk>): Promise<void> {
  for await (const _ of stream);
}

/**
 * Resilience every HTTP provider shares (retry, timeout, abort, parse errors, secrets),
 * run against the vendor's own wire server.
 */
export function runHttpResilience(vendor: ResilienceCase): void {
  describe(`${vendor.name}: HTTP resilience`, async () => {
    const server = await vendor.start();
    afterAll(() => server.close());
    beforeEach(() => server.reset());
    const model = (overrides: { maxRetries?: number; timeoutMs?: number } = {}) =>
      vendor.createModel(server, {
        apiKey: API_KEY,
        maxRetries: 2,
        timeoutMs: 10_000,
        retry: { baseDelayMs: 5, maxDelayMs: 20 },
        ...overrides,
      });
    const error = (status: number, message: string, headers?: Record<string, string>) =>
      ({ kind: 'json', status, headers, body: vendor.errorBody(message) }) as const;

    it('retries a 429 after Retry-After, then succeeds', async () => {
      server.push(error(429, 'rate limited', { 'retry-after': '0' }), 'after the wait');
      expect((await model().generate({ messages: user })).text).toBe('after the wait');
      expect(server.requests).toHaveLength(2);
    });

    it('retries a 5xx, then succeeds', async () => {
      server.push(error(529, 'Overloaded'), 'recovered');
      expect((await model().generate({ messages: user })).text).toBe('recovered');
      expect(server.requests).toHaveLength(2);
    });

    it('does not retry a 400, and keeps the provider message', async () => {
      server.push(error(400, 'bad field'), 'unused');
      const e = await failure(model().generate({ messages: user }));
      expect(server.requests).toHaveLength(1);
      expect(e).toMatchObject({ code: 'model_http', status: 400, retryable: false, providerMessage: 'bad field' });
    });

    it('times out a server that never answers', async () => {
      server.push({ kind: 'hang' });
      const started = Date.now();
      const e = await failure(model({ timeoutMs: 100, maxRetries: 0 }).generate({ messages: user }));
      expect(e.code).toBe('model_timeout');
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it('stops a stream at once when aborted mid-stream', async () => {
      server.push({
        kind: 'stream',
        pieces: vendor.streamStart('several words here'),
        hang: true,
        contentType: vendor.contentType,
      });
      const controller = new AbortController();
      let deltas = 0;
      const e = await failure(
        (async () => {
          for await (const chunk of model().stream({ messages: user, signal: controller.signal })) {
            if (chunk.type === 'text_delta' && ++deltas === 2) controller.abort();
          }
        })(),
      );
      expect(deltas).toBe(2);
      expect(e.code).toBe('model_aborted');
    });

    it('turns a malformed JSON body into a model_parse error', async () => {
      server.push({ kind: 'json', body: '{"content": [ {"type": "te' });
      expect((await failure(model().generate({ messages: user }))).code).toBe('model_parse');
    });

    it('turns a broken stream line into a model_parse error, without waiting for the end', async () => {
      const pieces = [...vendor.streamStart('fine so far'), vendor.brokenLine];
      server.push({ kind: 'stream', pieces, hang: true, contentType: vendor.contentType });
      const started = Date.now();
      const e = await failure(drain(model().stream({ messages: user })));
      expect(e.code).toBe('model_parse');
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it('never shows the API key, even when the provider echoes it', async () => {
      server.push(error(401, `invalid key ${API_KEY}`));
      const e = await failure(model().generate({ messages: user }));
      expect(e.status).toBe(401);
      for (const text of [e.message, JSON.stringify(e), e.providerMessage ?? '', String(e.stack)]) {
        expect(text).not.toContain(API_KEY);
      }
    });
  });
}
