import { join } from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { ChatOpenAI } from '@langchain/openai';
import { generateText, streamText } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { createApp, createLocalRuns, type RunningServer, SqliteRunStore, serve } from '../../../src/server/index.js';
import { defineTool } from '../../../src/tools/index.js';
import { callReply, tempDir } from '../server-fixtures.js';

/**
 * Each client with its DEFAULT retry settings (openai: 2 retries of 408/409/429/5xx unless
 * `x-should-retry: false`; the AI SDK: 2 retries of 408/409/429/5xx whatever the headers; LangChain: 6
 * retries of everything but 400-407, 409 and 413) against a real server whose agent writes a side effect
 * and then fails. Before, the failure answered 500 and each retry started another run.
 */
let server: RunningServer;
let dir: ReturnType<typeof tempDir>;
const effects: string[] = [];

const sideEffect = defineTool({
  name: 'charge',
  description: 'Charges the card (a side effect).',
  input: z.object({ amount: z.number() }),
  run: ({ amount }) => {
    effects.push(`charged ${amount}`);
    return 'charged';
  },
});

beforeAll(async () => {
  dir = tempDir();
  server = await serve({
    port: 0,
    dataDir: dir.path,
    log: () => {},
    config: {
      auth: { tokens: ['tok'] },
      store: { type: 'sqlite', path: join(dir.path, 'runs.db') },
      limits: { agents: { slow: { maxConcurrentRuns: 1, maxQueuedRuns: 0 } }, retryAfterSeconds: 1 },
      agents: {
        // Charges, then its model fails for good: the run ends `failed` after its side effect.
        flaky: () =>
          new Agent({
            model: scriptedModel((request) => {
              if (!request.messages.some((m) => m.role === 'tool')) return callReply('c1', 'charge', { amount: 5 });
              throw new Error('the upstream model exploded');
            }),
            tools: [sideEffect],
          }),
        slow: () => new Agent({ model: scriptedModel(['slow answer'], { delayMs: 700 }) }),
      },
    },
  });
});

afterAll(async () => {
  await server.close();
  dir.cleanup();
});

beforeEach(() => {
  effects.length = 0;
});

async function runsOf(agent: string): Promise<number> {
  return (await server.store.queryRuns({ agent, limit: 500 })).runs.length;
}

describe('a failed run is answered so that no client retries it', () => {
  it('the openai client (default retries) makes one run and one side effect, non-streamed and streamed', async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'tok' });
    const before = await runsOf('flaky');
    const failed = await client.chat.completions
      .create({ model: 'flaky', messages: [{ role: 'user', content: 'pay' }] })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(OpenAI.BadRequestError);
    expect((failed as InstanceType<typeof OpenAI.APIError>).headers?.get('x-should-retry')).toBe('false');
    expect(String((failed as Error).message)).toMatch(/did not answer: .*exploded/);
    expect(effects).toEqual(['charged 5']);
    expect(await runsOf('flaky')).toBe(before + 1);

    const stream = await client.chat.completions.create({
      model: 'flaky',
      stream: true,
      messages: [{ role: 'user', content: 'pay' }],
    });
    await expect(
      (async () => {
        for await (const _ of stream);
      })(),
    ).rejects.toThrow(/exploded/);
    expect(effects).toEqual(['charged 5', 'charged 5']);
    expect(await runsOf('flaky')).toBe(before + 2);
  });

  it('the AI SDK (@ai-sdk/openai-compatible, default maxRetries) makes one run and one side effect', async () => {
    const provider = createOpenAICompatible({ name: 'thinkflow', baseURL: `${server.url}/v1`, apiKey: 'tok' });
    const before = await runsOf('flaky');
    await expect(generateText({ model: provider('flaky'), prompt: 'pay' })).rejects.toThrow(/did not answer/);
    expect(effects).toEqual(['charged 5']);
    expect(await runsOf('flaky')).toBe(before + 1);
    const errors: unknown[] = [];
    const streamed = streamText({
      model: provider('flaky'),
      prompt: 'pay',
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    await streamed.consumeStream();
    expect(errors.length).toBeGreaterThan(0);
    expect(effects).toEqual(['charged 5', 'charged 5']);
    expect(await runsOf('flaky')).toBe(before + 2);
  });

  it('LangChain (@langchain/openai ChatOpenAI, default maxRetries 6) makes one run and one side effect', async () => {
    const model = new ChatOpenAI({ model: 'flaky', apiKey: 'tok', configuration: { baseURL: `${server.url}/v1` } });
    const before = await runsOf('flaky');
    await expect(model.invoke('pay')).rejects.toThrow(/did not answer/);
    expect(effects).toEqual(['charged 5']);
    expect(await runsOf('flaky')).toBe(before + 1);
    await expect(
      (async () => {
        for await (const _ of await model.stream('pay'));
      })(),
    ).rejects.toThrow(/exploded/);
    expect(effects).toEqual(['charged 5', 'charged 5']);
    expect(await runsOf('flaky')).toBe(before + 2);
  });
});

describe('a run the server refuses stays retryable (nothing was started)', () => {
  it('429 with Retry-After: the openai client retries and the one run it asked for runs once', async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'tok' });
    const before = await runsOf('slow');
    // Takes the agent's only slot (no queue), so the next request is refused until it ends.
    const occupied = client.chat.completions.create({ model: 'slow', messages: [{ role: 'user', content: 'one' }] });
    await expect.poll(() => runsOf('slow')).toBe(before + 1);
    const refused = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer tok', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'slow', messages: [{ role: 'user', content: 'two' }] }),
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('x-should-retry')).toBeNull();
    const retried = await client.chat.completions.create({
      model: 'slow',
      messages: [{ role: 'user', content: 'two' }],
    });
    expect(retried.choices[0].message.content).toBe('slow answer');
    await occupied;
    expect(await runsOf('slow')).toBe(before + 2);
  });

  it('429 with Retry-After: the AI SDK and LangChain wait, retry, and the run they asked for runs once', async () => {
    const provider = createOpenAICompatible({ name: 'thinkflow', baseURL: `${server.url}/v1`, apiKey: 'tok' });
    const langchain = new ChatOpenAI({ model: 'slow', apiKey: 'tok', configuration: { baseURL: `${server.url}/v1` } });
    const clients: [string, () => Promise<string>][] = [
      ['ai', async () => (await generateText({ model: provider('slow'), prompt: 'two' })).text],
      ['langchain', async () => String((await langchain.invoke('two')).content)],
    ];
    for (const [name, ask] of clients) {
      const before = await runsOf('slow');
      const occupied = fetch(`${server.url}/v1/agents/slow/runs?wait=true`, {
        method: 'POST',
        headers: { authorization: 'Bearer tok', 'content-type': 'application/json' },
        body: JSON.stringify({ input: 'one' }),
      });
      await expect.poll(() => runsOf('slow')).toBe(before + 1);
      expect(await ask(), name).toBe('slow answer');
      await occupied;
      expect(await runsOf('slow'), name).toBe(before + 2);
    }
  });
});

describe('a request that fails after it started a run', () => {
  it('answers 400 run_failed with x-should-retry: false, naming the run, instead of a retryable 500', async () => {
    const local = tempDir();
    const store = new SqliteRunStore({ path: join(local.path, 'runs.db') });
    const service = createLocalRuns({ agents: { slow: () => new Agent({ model: scriptedModel(['x']) }) }, store });
    // Reading the run back fails (a store gone away): the handler throws after the run started.
    const app = createApp({
      runs: { ...service, wait: async () => Promise.reject(new Error('store unreachable')) },
      onError: () => {},
    });
    try {
      const response = await app.fetch(
        new Request('http://localhost/v1/chat/completions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'slow', messages: [{ role: 'user', content: 'hi' }] }),
        }),
      );
      expect(response.status).toBe(400);
      expect(response.headers.get('x-should-retry')).toBe('false');
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('run_failed');
      const [run] = (await store.queryRuns({})).runs;
      expect(body.error.message).toContain(run.id);
    } finally {
      await service.close({ timeoutMs: 1000 });
      await store.close();
      local.cleanup();
    }
  });
});
