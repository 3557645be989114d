import { join } from 'node:path';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import {
  type AgentEntry,
  createRunWorker,
  PostgresRunStore,
  type RunningServer,
  serve,
} from '../../../src/server/index.js';
import { defineTool } from '../../../src/tools/index.js';
import { TEST_PG, TEST_REDIS, uniqueName } from '../pg-fixtures.js';
import { tempDir } from '../server-fixtures.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A gate the test opens: the run cannot end before it is open. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/**
 * An agent whose model streams (in 8-character deltas, after a delay) a sentence and a call to `wait_gate`,
 * which returns only once the test opens the gate, then streams its answer.
 */
function gatedAgent(g: ReturnType<typeof gate>) {
  const waitGate = defineTool({
    name: 'wait_gate',
    description: 'Waits for the gate.',
    input: z.object({}),
    timeoutMs: 10_000,
    run: async () => {
      await g.opened;
      return 'open';
    },
  });
  return () =>
    new Agent({
      model: scriptedModel(
        (_request, index) =>
          index === 0
            ? {
                text: 'Let me check the records. ',
                toolCalls: [{ id: 'c1', name: 'wait_gate', arguments: '{}' }],
              }
            : 'The records say the answer is 42.',
        { delayMs: 30 },
      ),
      tools: [waitGate],
    });
}

const EXPECTED = 'Let me check the records. \n\nThe records say the answer is 42.';

/** Streams a completion, opening the gate at the first content chunk; reports what the run was doing then. */
async function streamThrough(server: RunningServer, agent: string, g: ReturnType<typeof gate>) {
  const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'none', maxRetries: 0 });
  const stream = await client.chat.completions.create({
    model: agent,
    messages: [{ role: 'user', content: 'What is the answer?' }],
    stream: true,
  });
  let text = '';
  let statusAtFirstChunk: string | undefined;
  let finish: string | null = null;
  for await (const chunk of stream) {
    const content = chunk.choices[0]?.delta.content ?? '';
    if (content !== '' && statusAtFirstChunk === undefined) {
      const run = await server.runs.get(chunk.id.replace(/^chatcmpl-/, ''));
      statusAtFirstChunk = run?.status;
      g.open();
    }
    text += content;
    finish = chunk.choices[0]?.finish_reason ?? finish;
  }
  return { text, statusAtFirstChunk, finish };
}

describe('POST /v1/chat/completions streams live', () => {
  it('embedded: sends the model deltas while the run goes on, then the finish chunk', async () => {
    const dir = tempDir();
    const g = gate();
    const server = await serve({
      port: 0,
      log: () => {},
      config: {
        store: { type: 'sqlite', path: join(dir.path, 'runs.db') },
        agents: {
          gated: gatedAgent(g),
          reactive: () =>
            new Agent({ protocol: 'react', model: scriptedModel(['Thought: easy.\nFinal Answer: Paris.']) }),
        },
      },
    });
    cleanups.push(dir.cleanup, () => server.close());
    // The first chunk arrives while the run waits at the gate, which opens only after it: no wait for the end.
    const gated = await streamThrough(server, 'gated', g);
    expect(gated.statusAtFirstChunk).toBe('running');
    expect(gated.text).toBe(EXPECTED);
    expect(gated.finish).toBe('stop');
    // A ReAct model streams its scaffolding; only the final answer reaches the client.
    const reactive = await streamThrough(server, 'reactive', gate());
    expect(reactive.text).toBe('Paris.');
  }, 30_000);

  it('a client that hangs up mid-stream does not cancel the run: it is a stored run and ends done', async () => {
    const dir = tempDir();
    const g = gate();
    const server = await serve({
      port: 0,
      log: () => {},
      config: { store: { type: 'sqlite', path: join(dir.path, 'runs.db') }, agents: { gated: gatedAgent(g) } },
    });
    cleanups.push(dir.cleanup, () => server.close());
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'none', maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'gated',
      messages: [{ role: 'user', content: 'What is the answer?' }],
      stream: true,
    });
    let id = '';
    for await (const chunk of stream) {
      id = chunk.id.replace(/^chatcmpl-/, '');
      if (chunk.choices[0]?.delta.content) break;
    }
    g.open();
    const run = await server.runs.wait(id, AbortSignal.timeout(10_000));
    expect(run?.status).toBe('done');
    expect(run?.result?.output).toBe('The records say the answer is 42.');
  }, 30_000);

  it('queue mode: reads the deltas a worker logs in PostgreSQL while the run goes on', async () => {
    const g = gate();
    const agents: Record<string, AgentEntry> = { gated: gatedAgent(g) };
    const schema = uniqueName('tf_chat');
    const queueName = uniqueName('runs');
    const server = await serve({
      port: 0,
      log: () => {},
      config: { agents },
      queue: TEST_REDIS,
      queueName,
      pg: TEST_PG,
      pgSchema: schema,
    });
    const workerStore = new PostgresRunStore({ connectionString: TEST_PG, schema });
    const worker = createRunWorker({ agents, store: workerStore, redisUrl: TEST_REDIS, queueName, pollMs: 50 });
    cleanups.push(async () => {
      await worker.close();
      await workerStore.drop();
      await workerStore.close();
      await server.close();
    });
    const streamed = await streamThrough(server, 'gated', g);
    expect(streamed.statusAtFirstChunk).toBe('running');
    expect(streamed.text).toBe(EXPECTED);
    expect(streamed.finish).toBe('stop');
  }, 30_000);
});
