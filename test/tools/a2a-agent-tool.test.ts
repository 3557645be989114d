import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentCard, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  ServerCallContext,
} from '@a2a-js/sdk/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import { scriptedModel } from '../../src/llm/index.js';
import type { AnyTool } from '../../src/tools/index.js';
import { a2aAgentTool } from '../../src/tools/index.js';
import { startServer } from '../server/clients/protocol-fixtures.js';

/** An A2A agent built with the SDK's own server: it books tables, asking for the city first. */
const executor: AgentExecutor = {
  async execute(request, bus) {
    const text = request.userMessage.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
    const { taskId, contextId } = request;
    const status = (state: string, message?: string) =>
      bus.publish(
        AgentEvent.statusUpdate(
          TaskStatusUpdateEvent.fromJSON({
            taskId,
            contextId,
            status: {
              state,
              ...(message
                ? { message: { messageId: crypto.randomUUID(), role: 'ROLE_AGENT', parts: [{ text: message }] } }
                : {}),
            },
          }),
        ),
      );
    bus.publish(
      AgentEvent.task(
        request.task ??
          Task.fromJSON({ id: taskId, contextId, status: { state: 'TASK_STATE_SUBMITTED' }, history: [] }),
      ),
    );
    if (!request.task && /book/i.test(text)) {
      status('TASK_STATE_INPUT_REQUIRED', 'Which city?');
    } else {
      const answer = request.task ? `Booked a table in ${text}.` : `Remote says: ${text}`;
      bus.publish(
        AgentEvent.artifactUpdate(
          TaskArtifactUpdateEvent.fromJSON({
            taskId,
            contextId,
            artifact: { artifactId: 'a1', parts: [{ text: answer }] },
          }),
        ),
      );
      status('TASK_STATE_COMPLETED');
    }
    bus.finished();
  },
  async cancelTask() {},
};

let sdkServer: Server;
let sdkUrl: string;
let thinkflow: Awaited<ReturnType<typeof startServer>>;

beforeAll(async () => {
  sdkServer = createServer();
  await new Promise<void>((resolve) => sdkServer.listen(0, '127.0.0.1', resolve));
  sdkUrl = `http://127.0.0.1:${(sdkServer.address() as AddressInfo).port}`;
  const cardJson = {
    name: 'Table booker',
    description: 'Books restaurant tables.',
    version: '1.0.0',
    supportedInterfaces: [{ url: `${sdkUrl}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'book', name: 'book', description: 'Book a table', tags: [] }],
  };
  const handler = new JsonRpcTransportHandler(
    new DefaultRequestHandler(AgentCard.fromJSON(cardJson), new InMemoryTaskStore(), executor),
  );
  // The SDK's transport handler behind a few lines of node:http (its express adapter needs express).
  sdkServer.on('request', async (req, res) => {
    if (req.method === 'GET' && req.url === '/legacy-card.json') {
      // A v0.3-only card for thinkflow's own A2A endpoint: the tool then speaks message/send.
      const legacy = { name: 'helper', url: `${thinkflow.url}/a2a/helper`, protocolVersion: '0.3.0' };
      res.setHeader('content-type', 'application/json').end(JSON.stringify(legacy));
      return;
    }
    if (req.method === 'GET' && req.url === '/zh-card.json') {
      // The same legacy card under a Chinese name.
      const zh = { name: '翻译 助手', url: `${thinkflow.url}/a2a/helper`, protocolVersion: '0.3.0' };
      res.setHeader('content-type', 'application/json').end(JSON.stringify(zh));
      return;
    }
    if (req.method === 'GET' && req.url === '/.well-known/agent-card.json') {
      res.setHeader('content-type', 'application/json').end(JSON.stringify(cardJson));
      return;
    }
    let body = '';
    for await (const chunk of req) body += chunk;
    const answer = await handler.handle(body, new ServerCallContext());
    res.setHeader('content-type', 'application/json').end(JSON.stringify(answer));
  });
  thinkflow = await startServer();
});

afterAll(async () => {
  await new Promise((resolve) => sdkServer?.close(resolve));
  await thinkflow?.close();
});

/** An agent that sends its input to `tool` and answers with what came back. */
function caller(tool: AnyTool) {
  return new Agent({
    model: scriptedModel((request) => {
      const result = request.messages.findLast((m) => m.role === 'tool');
      if (result) return `Answer: ${String(result.content)}`;
      const input = String(request.messages.findLast((m) => m.role === 'user')?.content);
      return { text: '', toolCalls: [{ id: 'r1', name: tool.name, arguments: JSON.stringify({ task: input }) }] };
    }),
    tools: [tool],
  });
}

describe('a2aAgentTool', () => {
  it('calls an A2A agent built with the SDK server (v1.0 JSON-RPC), named and described by its card', async () => {
    const tool = await a2aAgentTool(`${sdkUrl}/`);
    expect(tool.name).toBe('Table_booker');
    expect(tool.description).toContain('Books restaurant tables.');
    const result = await caller(tool).run('hello there');
    expect(result.output).toBe('Answer: Remote says: hello there');
  });

  it('names the tool of an agent whose card names it in Chinese by that name (once every such tool was a2a_agent)', async () => {
    const tool = await a2aAgentTool(`${sdkUrl}/zh-card.json`);
    expect(tool.name).toBe('翻译_助手');
  });

  it("answers the remote agent's question through ask_user and continues its task", async () => {
    const tool = await a2aAgentTool(`${sdkUrl}/.well-known/agent-card.json`, { name: 'booker' });
    const asked: string[] = [];
    const result = await caller(tool).run('book a table', {
      ask: async (question) => {
        asked.push(question);
        return 'Lyon';
      },
    });
    expect(asked).toEqual(['Table booker asks: Which city?']);
    expect(result.output).toBe('Answer: Booked a table in Lyon.');
  });

  it('calls a thinkflow agent served over A2A, in v1.0 and in v0.3', async () => {
    for (const url of [`${thinkflow.url}/a2a/helper/`, `${sdkUrl}/legacy-card.json`]) {
      const tool = await a2aAgentTool(url);
      expect(tool.name).toBe('helper');
      const result = await caller(tool).run('Weather in Paris?');
      expect(result.output).toBe('Answer: It is sunny in Paris. (1 tool call)');
    }
  });

  it('fails with a message naming the card URL when there is no agent there', async () => {
    await expect(a2aAgentTool(`${thinkflow.url}/a2a/nobody/`)).rejects.toThrow(
      /could not read the agent card at http:\/\/127\.0\.0\.1:\d+\/a2a\/nobody\/\.well-known\/agent-card\.json/,
    );
  });
});
