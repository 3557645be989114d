import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/index.js';
import type { Message, ModelRequest } from '../../../src/core/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import {
  createApp,
  createQueueRuns,
  createRunWorker,
  PostgresRunStore,
  type RunRecord,
} from '../../../src/server/index.js';
import { TEST_PG, TEST_REDIS, uniqueName } from '../pg-fixtures.js';
import { callReply, echoTool, postJson } from '../server-fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Echoes three times, then answers with the tool results it saw; every model request goes to `seen`. */
function echoAgent(seen: Omit<ModelRequest, 'signal'>[]) {
  return () =>
    new Agent({
      name: 'echo',
      model: scriptedModel((request) => {
        seen.push(request);
        const results = request.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
        if (results.length >= 3) return `Saw: ${results.join(', ')}`;
        return callReply(`c${results.length}`, 'echo', { text: `step ${results.length}` });
      }),
      tools: [echoTool()],
    });
}

describe('POST /v1/runs/:id/fork in queue mode', () => {
  it('runs the fork on a worker from its first checkpoint, with the edited messages', async () => {
    const schema = uniqueName('tf_qfork');
    const location = { redisUrl: TEST_REDIS, queueName: uniqueName('runs'), prefix: uniqueName('tf') };
    const apiStore = new PostgresRunStore({ connectionString: TEST_PG, schema });
    await apiStore.init();
    const runs = createQueueRuns({ ...location, agents: ['echo'], store: apiStore, pollMs: 50 });
    const app = createApp({ runs });
    const seen: Omit<ModelRequest, 'signal'>[] = [];
    const workerStore = new PostgresRunStore({ connectionString: TEST_PG, schema });
    const worker = createRunWorker({ ...location, agents: { echo: echoAgent(seen) }, store: workerStore, pollMs: 50 });
    cleanups.push(async () => {
      await worker.close();
      await runs.close();
      await apiStore.drop();
      await Promise.all([apiStore.close(), workerStore.close()]);
    });
    const post = async (path: string, body: unknown) =>
      (await app.fetch(new Request(`http://localhost${path}`, postJson(body)))).json() as Promise<RunRecord>;

    const source = await post('/v1/agents/echo/runs?wait=true', { input: 'Echo three times.' });
    expect(source.status).toBe('done');
    seen.length = 0;
    const messages: Message[] = [
      { role: 'system', content: 'You echo.' },
      { role: 'user', content: 'Echo three times.' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'x', name: 'echo', arguments: '{"text":"edited"}' }] },
      { role: 'tool', toolCallId: 'x', content: 'echo: edited' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'y', name: 'echo', arguments: '{"text":"again"}' }] },
      { role: 'tool', toolCallId: 'y', content: 'echo: again' },
    ];
    const fork = await post(`/v1/runs/${source.id}/fork?wait=true`, { fromStep: 2, messages });
    expect(fork).toMatchObject({ status: 'done', forkedFrom: { runId: source.id, fromStep: 2 } });
    expect(fork.result?.output).toBe('Saw: echo: edited, echo: again, echo: step 2');
    // Steps 2 and 3 only, the first from the edited conversation.
    expect(seen).toHaveLength(2);
    expect(seen[0].messages).toEqual(messages);
    expect(fork.result?.steps).toHaveLength(4);
  }, 60_000);
});
