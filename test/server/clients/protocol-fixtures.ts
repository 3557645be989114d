import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { type RunningServer, serve } from '../../../src/server/index.js';
import { askUserTool } from '../../../src/tools/builtins/ask-user.js';
import { defineTool } from '../../../src/tools/index.js';

const call = (id: string, name: string, args: unknown) => ({
  text: '',
  toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
});

const weather = defineTool({
  name: 'weather',
  description: 'The weather in a city.',
  input: z.object({ city: z.string() }),
  run: ({ city }) => `Sunny in ${city}`,
});

/** Deployed services, so a test sees whether an approved call ran. */
export const deployed: string[] = [];

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

/**
 * Agents the protocol tests talk to, each scripted by the conversation so far (a fresh model per run):
 * `helper` says a word, calls `weather` and answers; `ops` calls `deploy`, which needs approval;
 * `asker` asks the user which city; `slow` takes a while (to cancel it).
 */
export const protocolAgents = {
  helper: () =>
    new Agent({
      name: 'helper',
      model: scriptedModel((request) => {
        const tools = request.messages.filter((m) => m.role === 'tool');
        if (tools.length === 0) return { ...call('w1', 'weather', { city: 'Paris' }), text: 'Let me check.' };
        return `It is sunny in Paris. (${tools.length} tool call)`;
      }),
      tools: [weather],
    }),
  ops: () =>
    new Agent({
      name: 'ops',
      model: scriptedModel((request) => {
        const tool = request.messages.findLast((m) => m.role === 'tool');
        if (!tool) return call('d1', 'deploy', { service: 'api' });
        return String(tool.content).includes('denied') ? 'Deployment cancelled.' : 'Deployed the api.';
      }),
      tools: [deploy],
    }),
  asker: () =>
    new Agent({
      name: 'asker',
      model: scriptedModel((request) => {
        const tool = request.messages.findLast((m) => m.role === 'tool');
        if (!tool) return call('a1', 'ask_user', { question: 'Which city?' });
        return `Booked a table in ${String(tool.content)}.`;
      }),
      tools: [askUserTool],
    }),
  slow: () => new Agent({ name: 'slow', model: scriptedModel(['never seen'], { delayMs: 30_000 }) }),
};

/** `thinkflow serve` in this process on a free port, over a temp data dir. */
export async function startServer(agents: Record<string, unknown> = protocolAgents): Promise<{
  server: RunningServer;
  url: string;
  close(): Promise<void>;
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'thinkflow-protocols-'));
  const server = await serve({
    config: { agents: agents as typeof protocolAgents },
    port: 0,
    dataDir,
    shutdownTimeoutMs: 500,
    log: () => {},
  });
  return {
    server,
    url: server.url,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
