import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import type { RunRecord } from '../../../src/server/index.js';
import { askUserTool, NO_ANSWER } from '../../../src/tools/builtins/ask-user.js';
import { defineTool, type ToolContext } from '../../../src/tools/index.js';
import { callReply, embeddedApp, postJson } from '../server-fixtures.js';
import { eventually } from '../spawn-server.js';

let server: ReturnType<typeof embeddedApp> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function deployAgent(deployed: string[]) {
  const deploy = defineTool({
    name: 'deploy',
    description: 'Deploys a service.',
    input: z.object({ service: z.string() }),
    needsApproval: true,
    run: ({ service }) => {
      deployed.push(service);
      return `deployed ${service}`;
    },
  });
  return () =>
    new Agent({
      model: scriptedModel([callReply('c1', 'deploy', { service: 'api' }), 'Deployment handled.']),
      tools: [deploy],
    });
}

async function waiting(id: string): Promise<RunRecord> {
  return eventually(async () => {
    const run = await server!.app.runs.get(id);
    return run?.status === 'waiting' ? run : undefined;
  }, 5000);
}

describe('human in the loop', () => {
  it('pauses a needsApproval call as waiting with the question, and resumes when approved', async () => {
    const deployed: string[] = [];
    server = embeddedApp({ agents: { ops: deployAgent(deployed) } });
    const { id } = (await (
      await server.request('/v1/agents/ops/runs', postJson({ input: 'ship it' }))
    ).json()) as RunRecord;
    const paused = await waiting(id);
    expect(paused.questions).toEqual([
      expect.objectContaining({ kind: 'approval', tool: 'deploy', input: { service: 'api' } }),
    ]);
    expect(deployed).toEqual([]);

    const answered = await server.request(`/v1/runs/${id}/approvals`, postJson({ approved: true }));
    expect(answered.status).toBe(200);
    const run = await server.app.runs.wait(id);
    expect(run?.status).toBe('done');
    expect(deployed).toEqual(['api']);
    expect(run?.result?.steps[0].toolCalls[0].output).toBe('deployed api');
  });

  it('does not run a denied call; the model sees the denial', async () => {
    const deployed: string[] = [];
    server = embeddedApp({ agents: { ops: deployAgent(deployed) } });
    const { id } = (await (
      await server.request('/v1/agents/ops/runs', postJson({ input: 'ship it' }))
    ).json()) as RunRecord;
    const paused = await waiting(id);
    await server.request(
      `/v1/runs/${id}/approvals`,
      postJson({ questionId: paused.questions![0].id, approved: false }),
    );
    const run = await server.app.runs.wait(id);
    expect(deployed).toEqual([]);
    expect(run?.result?.steps[0].toolCalls[0].output).toContain('denied');
  });

  it('answers 409 when the run waits on nothing and 404 for an unknown run', async () => {
    server = embeddedApp({ agents: { ops: deployAgent([]) } });
    const { id } = (await (await server.request('/v1/agents/ops/runs', postJson({ input: 'x' }))).json()) as RunRecord;
    await waiting(id);
    expect((await server.request(`/v1/runs/${id}/approvals`, postJson({ questionId: 'nope' }))).status).toBe(409);
    expect((await server.request('/v1/runs/missing/approvals', postJson({}))).status).toBe(404);
    await server.request(`/v1/runs/${id}/cancel`, { method: 'POST' });
  });

  it('pauses on ask_user with the question and resumes when answered', async () => {
    server = embeddedApp({
      agents: {
        helper: () =>
          new Agent({
            model: scriptedModel([callReply('c1', 'ask_user', { question: 'Which colour?' }), 'Painted.']),
            tools: [askUserTool],
          }),
      },
    });
    const { id } = (await (
      await server.request('/v1/agents/helper/runs', postJson({ input: 'paint' }))
    ).json()) as RunRecord;
    const paused = await waiting(id);
    expect(paused.questions?.[0]).toMatchObject({ tool: 'ask_user', question: 'Which colour?' });
    await server.request(`/v1/runs/${id}/approvals`, postJson({ answer: 'blue' }));
    const run = await server.app.runs.wait(id);
    expect(run?.status).toBe('done');
    const output = run?.result?.steps[0].toolCalls[0].output ?? '';
    expect(output).not.toBe(NO_ANSWER);
    expect(output.length).toBeGreaterThan(0);
  });
});

describe('askUserTool', () => {
  const ctx = (extra: Partial<ToolContext>): ToolContext => ({
    signal: new AbortController().signal,
    runId: 'r',
    callId: 'c',
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    approve: async () => false,
    ...extra,
  });

  it('returns the answer from ctx.ask', async () => {
    expect(await askUserTool.run({ question: 'Colour?' }, ctx({ ask: async (q) => `blue for ${q}` }))).toBe(
      'blue for Colour?',
    );
  });

  it('tells the model to go on when nobody answers', async () => {
    expect(await askUserTool.run({ question: 'Colour?' }, ctx({}))).toBe(NO_ANSWER);
    expect(await askUserTool.run({ question: 'Colour?' }, ctx({ ask: async () => '  ' }))).toBe(NO_ANSWER);
  });
});
