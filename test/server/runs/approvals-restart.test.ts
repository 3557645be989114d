import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.js';
import type { ModelRequest } from '../../../src/core/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { type RunningServer, type RunRecord, serve } from '../../../src/server/index.js';
import { askUserTool } from '../../../src/tools/builtins/ask-user.js';
import { defineTool } from '../../../src/tools/index.js';
import { postJson, tempDir } from '../server-fixtures.js';
import { eventually } from '../spawn-server.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Calls `tool` with `input` first, then answers with what the tool said (a fresh model per run, as after a restart). */
function oneCall(tool: string, input: Record<string, unknown>) {
  return (request: ModelRequest) => {
    const result = request.messages.find((m) => m.role === 'tool');
    if (!result) return { text: '', toolCalls: [{ id: 'c1', name: tool, arguments: JSON.stringify(input) }] };
    return `Told: ${result.content}`;
  };
}

function agents(deployed: string[]) {
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
  return {
    ops: () => new Agent({ model: scriptedModel(oneCall('deploy', { service: 'api' })), tools: [deploy] }),
    helper: () =>
      new Agent({ model: scriptedModel(oneCall('ask_user', { question: 'Which colour?' })), tools: [askUserTool] }),
  };
}

async function start(dataDir: string, deployed: string[]): Promise<RunningServer> {
  const server = await serve({
    config: { agents: agents(deployed) },
    port: 0,
    dataDir,
    shutdownTimeoutMs: 50,
    log: () => {},
  });
  cleanups.push(() => server.close());
  return server;
}

function waiting(server: RunningServer, id: string): Promise<RunRecord> {
  return eventually(async () => {
    const run = await server.runs.get(id);
    return run?.status === 'waiting' ? run : undefined;
  }, 10_000);
}

async function startRun(server: RunningServer, agent: string): Promise<string> {
  const created = await fetch(`${server.url}/v1/agents/${agent}/runs`, postJson({ input: 'go' }));
  return ((await created.json()) as RunRecord).id;
}

describe('a run waiting for a person across a restart', () => {
  it('a call waiting for approval had not started: after a restart it is asked for again, not reported interrupted', async () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    const deployed: string[] = [];
    const first = await start(dir.path, deployed);
    const id = await startRun(first, 'ops');
    await waiting(first, id);
    await first.close();

    const second = await start(dir.path, deployed);
    const paused = await waiting(second, id);
    expect(paused.questions).toEqual([expect.objectContaining({ kind: 'approval', tool: 'deploy' })]);
    await fetch(`${second.url}/v1/runs/${id}/approvals`, postJson({ approved: true }));
    const run = await second.runs.wait(id, AbortSignal.timeout(10_000));
    expect(run?.status).toBe('done');
    expect(deployed).toEqual(['api']);
    expect(run?.result?.output).toBe('Told: deployed api');
  }, 30_000);

  it('ask_user waiting for an answer is asked again after a restart; the stop is not taken for an answer', async () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    const first = await start(dir.path, []);
    const id = await startRun(first, 'helper');
    await waiting(first, id);
    await first.close();

    const second = await start(dir.path, []);
    const paused = await waiting(second, id);
    expect(paused.questions).toEqual([expect.objectContaining({ tool: 'ask_user', question: 'Which colour?' })]);
    await fetch(`${second.url}/v1/runs/${id}/approvals`, postJson({ answer: 'blue' }));
    const run = await second.runs.wait(id, AbortSignal.timeout(10_000));
    expect(run?.status).toBe('done');
    expect(run?.result?.output).toBe('Told: blue');
  }, 30_000);
});
