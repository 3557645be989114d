import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.js';
import type { Message, ModelRequest } from '../../../src/core/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import {
  createApp,
  type LocalRuns,
  type RunRecord,
  type ServerLimits,
  SqliteRunStore,
  workflowRuns,
} from '../../../src/server/index.js';
import { createStep, createWorkflow } from '../../../src/workflow/index.js';
import { sqliteWorkflowStore } from '../../../src/workflow/node.js';
import { echoTool, postJson, tempDir } from '../server-fixtures.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Seen = Omit<ModelRequest, 'signal'>[];

/**
 * An agent that echoes three times, then answers with every tool result it saw: a fresh model per run,
 * each request recorded in `seen` (one per model call).
 */
function echoAgent(seen: Seen, delayMs = 0) {
  return () =>
    new Agent({
      name: 'echo',
      model: scriptedModel(
        (request) => {
          seen.push(request);
          const results = request.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
          if (results.length >= 3)
            return { text: `Saw: ${results.join(', ')}`, usage: { promptTokens: 7, completionTokens: 1 } };
          const id = `c${results.length}`;
          const text = `step ${results.length}`;
          return {
            text: '',
            toolCalls: [{ id, name: 'echo', arguments: JSON.stringify({ text }) }],
            usage: { promptTokens: 7, completionTokens: 1 },
          };
        },
        { delayMs },
      ),
      tools: [echoTool()],
    });
}

/** An app over a SQLite file in `dir`, with alice and bob, and a `double` workflow beside the agent. */
function open(dir: string, seen: Seen, delayMs = 0, limits?: ServerLimits) {
  const store = new SqliteRunStore({ path: join(dir, 'runs.db') });
  const double = createWorkflow({ id: 'double', input: z.number(), output: z.number() })
    .then(createStep({ id: 'twice', input: z.number(), output: z.number(), run: (n) => n * 2 }))
    .commit();
  const workflows = workflowRuns({
    workflows: { double },
    store: sqliteWorkflowStore({ dataDir: dir }),
    claims: store,
    ownStore: true,
  });
  const app = createApp({
    agents: { echo: echoAgent(seen, delayMs) },
    store,
    workflows,
    limits,
    auth: {
      tokens: [
        { token: 'tok-a', principal: 'alice' },
        { token: 'tok-b', principal: 'bob' },
      ],
    },
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await app.runs.close({ timeoutMs: 50 });
    await workflows.close();
    await store.close();
  };
  cleanups.push(close);
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await app.fetch(
      new Request(`http://localhost${path}`, postJson(body, { authorization: 'Bearer tok-a', ...headers })),
    );
    // biome-ignore lint/suspicious/noExplicitAny: the tests read answer fields freely.
    return { status: response.status, headers: response.headers, json: (await response.json()) as any };
  };
  const get = async (path: string) => {
    const response = await app.fetch(
      new Request(`http://localhost${path}`, { headers: { authorization: 'Bearer tok-a' } }),
    );
    return (await response.json()) as RunRecord;
  };
  return { app, store, post, get, close };
}

function fresh(delayMs = 0, limits?: ServerLimits) {
  const dir = tempDir();
  cleanups.push(() => dir.cleanup());
  const seen: Seen = [];
  return { dir: dir.path, seen, ...open(dir.path, seen, delayMs, limits) };
}

/** A finished run of four steps (three echoes, then the answer). */
async function finishedRun(s: ReturnType<typeof fresh>) {
  const started = await s.post('/v1/agents/echo/runs?wait=true', { input: 'Echo three times.' });
  expect(started.json).toMatchObject({
    status: 'done',
    result: { output: 'Saw: echo: step 0, echo: step 1, echo: step 2' },
  });
  s.seen.length = 0;
  return started.json as RunRecord;
}

const toolTexts = (messages: Message[]) => messages.filter((m) => m.role === 'tool').map((m) => m.content);

describe('POST /v1/runs/:id/fork for an agent run', () => {
  it('runs again from a middle step: earlier steps are carried, not asked of the model, and the source is unchanged', async () => {
    const s = fresh();
    const source = await finishedRun(s);
    const before = await s.get(`/v1/runs/${source.id}`);

    const fork = await s.post(`/v1/runs/${source.id}/fork?wait=true`, { fromStep: 2 });
    expect(fork.status).toBe(200);
    expect(fork.json).toMatchObject({
      status: 'done',
      owner: 'alice',
      agent: 'echo',
      forkedFrom: { runId: source.id, fromStep: 2 },
      result: {
        output: 'Saw: echo: step 0, echo: step 1, echo: step 2',
        forkedFrom: { runId: source.id, fromStep: 2 },
      },
    });
    expect(fork.json.id).not.toBe(source.id);
    // Steps 2 and 3 only.
    expect(s.seen).toHaveLength(2);
    expect(toolTexts(s.seen[0].messages)).toEqual(['echo: step 0', 'echo: step 1']);
    const result = fork.json.result;
    expect(result.steps).toHaveLength(4);
    expect(result.steps.slice(0, 2)).toEqual(source.result!.steps.slice(0, 2));
    expect(result.usage).toMatchObject({ llmCalls: 4, promptTokens: 28, completionTokens: 4 });
    expect(await s.get(`/v1/runs/${source.id}`)).toEqual(before);
    // The fork's log is its own: it starts with run_start and holds the new steps' model calls only.
    const events = await s.app.runs.events(fork.json.id, 0);
    expect(events.filter((e) => e.event.type === 'model_request').map((e) => e.event.step)).toEqual([2, 3]);
  });

  it('sends edited messages to the model at that step, and the fork goes on from them', async () => {
    const s = fresh();
    const source = await finishedRun(s);
    const messages: Message[] = [
      { role: 'system', content: 'You echo.' },
      { role: 'user', content: 'Echo three times.' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'x', name: 'echo', arguments: '{"text":"edited"}' }] },
      { role: 'tool', toolCallId: 'x', content: 'echo: edited' },
    ];
    const fork = await s.post(`/v1/runs/${source.id}/fork?wait=true`, { fromStep: 1, messages });
    expect(fork.status).toBe(200);
    expect(s.seen[0].messages).toEqual(messages);
    expect(toolTexts(s.seen[1].messages)).toEqual(['echo: edited', 'echo: step 1']);
    expect(fork.json.result.output).toBe('Saw: echo: edited, echo: step 1, echo: step 2');
    expect(fork.json.forkedFrom).toEqual({ runId: source.id, fromStep: 1, edited: { messages, steps: 1 } });

    // A fork of that fork from a later step keeps the edit.
    s.seen.length = 0;
    const again = await s.post(`/v1/runs/${fork.json.id}/fork?wait=true`, { fromStep: 3 });
    expect(s.seen).toHaveLength(1);
    expect(s.seen[0].messages.slice(0, 4)).toEqual(messages);
    expect(again.json.result.output).toBe('Saw: echo: edited, echo: step 1, echo: step 2');
  });

  it('resumes an unfinished fork after a restart with its edited messages', async () => {
    const s = fresh(150);
    const source = await finishedRun(s);
    const messages: Message[] = [
      { role: 'system', content: 'You echo.' },
      { role: 'user', content: 'Echo from the edit.' },
    ];
    const fork = await s.post(`/v1/runs/${source.id}/fork`, { fromStep: 0, messages });
    expect(fork.status).toBe(202);
    expect(fork.headers.get('location')).toBe(`/v1/runs/${fork.json.id}`);
    // Stopped mid-run (a shutdown): the fork stays unfinished, checkpointed.
    while (s.seen.length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    await s.close();

    const seen: Seen = [];
    const next = open(s.dir, seen);
    expect(await next.app.runs.get(fork.json.id)).toMatchObject({ status: 'running' });
    expect(await (next.app.runs as LocalRuns).resumeUnfinished()).toBe(1);
    const ended = await next.app.runs.wait(fork.json.id);
    expect(ended?.status).toBe('done');
    expect(seen.length).toBeGreaterThan(0);
    for (const request of seen) expect(request.messages.slice(0, 2)).toEqual(messages);
    expect(ended?.result?.forkedFrom).toEqual({ runId: source.id, fromStep: 0 });
  });

  it('answers 404 for an unknown run or another owner, 400 naming a bad step or message', async () => {
    const s = fresh();
    const source = await finishedRun(s);
    expect((await s.post('/v1/runs/nope/fork', { fromStep: 0 })).status).toBe(404);
    const bob = await s.post(`/v1/runs/${source.id}/fork`, { fromStep: 0 }, { authorization: 'Bearer tok-b' });
    expect(bob.status).toBe(404);

    const far = await s.post(`/v1/runs/${source.id}/fork`, { fromStep: 9 });
    expect(far.status).toBe(400);
    expect(far.json.error.message).toMatch(/fromStep must be a step of run .*0 to 3 \(got 9\)/);
    const named = await s.post(`/v1/runs/${source.id}/fork`, { fromStep: 'two' });
    expect(named.status).toBe(400);
    expect(named.json.error.message).toMatch(/fromStep must be a step number/);
    const robot = await s.post(`/v1/runs/${source.id}/fork`, {
      fromStep: 1,
      messages: [{ role: 'robot', content: 'x' }],
    });
    expect(robot.status).toBe(400);
    expect(robot.json.error.message).toMatch(/messages/);
    expect((await s.post(`/v1/runs/${source.id}/fork`, { fromStep: 1, messages: [] })).status).toBe(400);
    expect(s.seen).toHaveLength(0);
    expect((await s.store.queryRuns({ limit: 10 })).runs).toHaveLength(1);
  });

  it('starts one fork per Idempotency-Key, and 422 for the key with another body', async () => {
    const s = fresh();
    const source = await finishedRun(s);
    const key = { 'Idempotency-Key': 'fork-1' };
    const first = await s.post(`/v1/runs/${source.id}/fork?wait=true`, { fromStep: 2 }, key);
    const retry = await s.post(`/v1/runs/${source.id}/fork?wait=true`, { fromStep: 2 }, key);
    expect(retry.json.id).toBe(first.json.id);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(s.seen).toHaveLength(2);
    expect((await s.post(`/v1/runs/${source.id}/fork`, { fromStep: 1 }, key)).status).toBe(422);
    expect((await s.store.queryRuns({ limit: 10 })).runs).toHaveLength(2);
  });

  it("answers 429 when the agent's queue is full, as a start does, and stores no fork", async () => {
    const s = fresh(100, { maxConcurrentRuns: 1, maxQueuedRuns: 0 });
    const source = await finishedRun(s);
    const busy = await s.post('/v1/agents/echo/runs', { input: 'Echo three times.' });
    expect(busy.status).toBe(202);
    const refused = await s.post(`/v1/runs/${source.id}/fork`, { fromStep: 1 });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect(refused.json.error.message).toMatch(/agent "echo"/);
    expect((await s.store.queryRuns({ limit: 10 })).runs).toHaveLength(2);
    await s.app.runs.wait(busy.json.id);
  });

  it('leaves a workflow run to the workflow fork on the same route', async () => {
    const s = fresh();
    const started = await s.post('/v1/workflows/double/runs?wait=true', { input: 4 });
    expect(started.json).toMatchObject({ status: 'done', output: 8 });
    const fork = await s.post(`/v1/runs/${started.json.id}/fork?wait=true`, { fromStep: 'twice', input: 5 });
    expect(fork.status).toBe(200);
    expect(fork.json).toMatchObject({ status: 'done', output: 10, forkedFrom: { runId: started.json.id } });
    // An id of neither kind is a 404, whichever body it comes with.
    expect((await s.post('/v1/runs/nope/fork', { fromStep: 'twice' })).status).toBe(404);
    const bob = await s.post(
      `/v1/runs/${started.json.id}/fork`,
      { fromStep: 'twice' },
      { authorization: 'Bearer tok-b' },
    );
    expect(bob.status).toBe(404);
  });
});
