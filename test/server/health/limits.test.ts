import { afterEach, describe, expect, it } from 'vitest';
import { apiTokens } from '../../../src/server/index.js';
import { embeddedApp, postJson, stepsAgent } from '../server-fixtures.js';

let server: ReturnType<typeof embeddedApp> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type ErrorBody = { error: { code: string; message: string } };

describe('auth', () => {
  it('answers 401 without a bearer token or with a wrong one, and serves with a right one', async () => {
    server = embeddedApp({ agents: { steps: stepsAgent() }, tokens: ['secret-1', 'secret-2'] });
    const none = await server.request('/v1/agents/steps/runs?wait=true', postJson({ input: 'go' }));
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    const wrong = await server.request('/v1/runs/x', { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    const right = await server.request(
      '/v1/agents/steps/runs?wait=true',
      postJson({ input: 'go' }, { authorization: 'Bearer secret-2' }),
    );
    expect(right.status).toBe(200);
    expect((await server.request('/health')).status).toBe(200);
  });

  it('reads tokens from the config and THINKFLOW_API_TOKENS', () => {
    const config = { agents: {}, auth: { tokens: ['a'] } };
    expect(apiTokens(config, { THINKFLOW_API_TOKENS: ' b, c ,' })).toEqual(['a', 'b', 'c']);
    expect(apiTokens({ agents: {} }, {})).toEqual([]);
  });
});

describe('bodies', () => {
  it('answers 413 for a body over the limit', async () => {
    server = embeddedApp({ agents: { steps: stepsAgent() }, limits: { maxBodyBytes: 1024 } });
    const response = await server.request('/v1/agents/steps/runs', postJson({ input: 'x'.repeat(5000) }));
    expect(response.status).toBe(413);
    expect(((await response.json()) as ErrorBody).error.code).toBe('payload_too_large');
  });

  it('answers 400 naming the problem for malformed JSON and for invalid fields', async () => {
    server = embeddedApp({ agents: { steps: stepsAgent() } });
    const malformed = await server.request('/v1/agents/steps/runs', { ...postJson({}), body: '{"input": "go"' });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as ErrorBody).error.message).toContain('not valid JSON');
    const wrongType = await server.request('/v1/agents/steps/runs', postJson({ input: 42 }));
    expect(wrongType.status).toBe(400);
    expect(((await wrongType.json()) as ErrorBody).error.message).toMatch(/input/);
    const empty = await server.request('/v1/agents/steps/runs', postJson({ input: '' }));
    expect(((await empty.json()) as ErrorBody).error.message).toContain('non-empty');
    const chat = await server.request('/v1/chat/completions', postJson({ model: 'steps', messages: [] }));
    expect(chat.status).toBe(400);
    expect(((await chat.json()) as ErrorBody).error.message).toContain('messages');
  });
});

describe('concurrency', () => {
  it('queues runs beyond the concurrency limit and answers 429 with Retry-After when the queue is full', async () => {
    server = embeddedApp({
      agents: { slow: stepsAgent({ delayMs: 3000 }) },
      limits: { maxConcurrentRuns: 2, maxQueuedRuns: 1, retryAfterSeconds: 7 },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await server.request('/v1/agents/slow/runs', postJson({ input: `run ${i}` }));
      statuses.push(response.status);
      if (response.status === 429) {
        expect(response.headers.get('retry-after')).toBe('7');
        expect(((await response.json()) as ErrorBody).error.code).toBe('queue_full');
      }
    }
    expect(statuses).toEqual([202, 202, 202, 429]);
  });
});
