import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployed, startServer } from './protocol-fixtures.js';

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

/** One request the way useChat makes it, read into the assistant message it builds. */
async function send(
  agent: string,
  chatId: string,
  messages: UIMessage[],
  messageId?: string,
): Promise<{ message: UIMessage; chunks: string[] }> {
  const chunks: string[] = [];
  const transport = new DefaultChatTransport<UIMessage>({
    api: `${server.url}/v1/agents/${agent}/ui-stream`,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
      return response;
    },
  });
  const stream = await transport.sendMessages({
    chatId,
    messages,
    trigger: 'submit-message',
    messageId,
    abortSignal: undefined,
  });
  const recorded = stream.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        chunks.push(chunk.type);
        controller.enqueue(chunk);
      },
    }),
  );
  const last = messages.at(-1);
  let message: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({
    stream: recorded,
    message: last?.role === 'assistant' ? last : undefined,
  })) {
    message = snapshot;
  }
  if (!message) throw new Error('no message');
  return { message: structuredClone(message), chunks };
}

const user = (id: string, text: string): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });

describe('AI SDK UI message stream', () => {
  it('streams text, a tool call and its output with step boundaries', async () => {
    const { message, chunks } = await send('helper', 'chat-1', [user('u1', 'Weather in Paris?')]);
    expect(chunks[0]).toBe('start');
    expect(chunks).toContain('start-step');
    expect(chunks).toContain('finish-step');
    expect(chunks.at(-1)).toBe('finish');
    expect(chunks.filter((c) => c === 'start-step')).toHaveLength(2);
    const text = message.parts.filter((p) => p.type === 'text').map((p) => p.text);
    expect(text).toEqual(['Let me check.', 'It is sunny in Paris. (1 tool call)']);
    const tool = message.parts.find((p) => p.type === 'dynamic-tool');
    expect(tool).toMatchObject({ toolName: 'weather', state: 'output-available', input: { city: 'Paris' } });
    expect(tool && 'output' in tool && tool.output).toBe('Sunny in Paris');
    expect(message.metadata).toMatchObject({ thinkflow: { runId: expect.any(String) } });
  });

  it('pauses on a call that needs approval and resumes the same run when it is approved', async () => {
    deployed.length = 0;
    const first = await send('ops', 'chat-2', [user('u1', 'Ship the api')]);
    expect(first.chunks).toContain('tool-approval-request');
    expect(first.chunks.at(-1)).toBe('finish');
    const part = first.message.parts.find((p) => p.type === 'dynamic-tool');
    expect(part).toMatchObject({ state: 'approval-requested', toolName: 'deploy' });
    expect(deployed).toEqual([]);

    // What addToolApprovalResponse does to the message before it sends it again.
    const approved: UIMessage = {
      ...first.message,
      parts: first.message.parts.map((p) =>
        p.type === 'dynamic-tool' && p.state === 'approval-requested'
          ? { ...p, state: 'approval-responded', approval: { ...p.approval, approved: true } }
          : p,
      ),
    };
    const second = await send('ops', 'chat-2', [user('u1', 'Ship the api'), approved], approved.id);
    expect(second.message.id).toBe(first.message.id);
    expect(deployed).toEqual(['api']);
    const tool = second.message.parts.find((p) => p.type === 'dynamic-tool');
    expect(tool).toMatchObject({ state: 'output-available', output: 'deployed api' });
    expect(second.message.parts.filter((p) => p.type === 'text').map((p) => p.text)).toEqual(['Deployed the api.']);

    // The chat id is the session the conversation is kept in.
    const session = await (await fetch(`${server.url}/v1/sessions/chat-2`)).json();
    expect(session.messages).toEqual([
      { role: 'user', content: 'Ship the api' },
      { role: 'assistant', content: 'Deployed the api.' },
    ]);
  });

  it('reports a denied call as denied and lets the agent go on', async () => {
    deployed.length = 0;
    const first = await send('ops', 'chat-3', [user('u1', 'Ship the api')]);
    const denied: UIMessage = {
      ...first.message,
      parts: first.message.parts.map((p) =>
        p.type === 'dynamic-tool' && p.state === 'approval-requested'
          ? { ...p, state: 'approval-responded', approval: { ...p.approval, approved: false, reason: 'not today' } }
          : p,
      ),
    };
    const second = await send('ops', 'chat-3', [user('u1', 'Ship the api'), denied], denied.id);
    expect(deployed).toEqual([]);
    expect(second.message.parts.find((p) => p.type === 'dynamic-tool')).toMatchObject({ state: 'output-denied' });
    expect(second.message.parts.filter((p) => p.type === 'text').map((p) => p.text)).toEqual(['Deployment cancelled.']);
  });

  it('leaves ask_user as an open tool call answered with its output', async () => {
    const first = await send('asker', 'chat-4', [user('u1', 'Book a table')]);
    const ask = first.message.parts.find((p) => p.type === 'dynamic-tool');
    expect(ask).toMatchObject({ toolName: 'ask_user', state: 'input-available', input: { question: 'Which city?' } });
    const answered: UIMessage = {
      ...first.message,
      parts: first.message.parts.map((p) =>
        p.type === 'dynamic-tool' ? { ...p, state: 'output-available', output: 'Lyon' } : p,
      ) as UIMessage['parts'],
    };
    const second = await send('asker', 'chat-4', [user('u1', 'Book a table'), answered], answered.id);
    expect(second.message.parts.filter((p) => p.type === 'text').map((p) => p.text)).toEqual([
      'Booked a table in Lyon.',
    ]);
  });

  it('answers 400 naming the part an agent cannot take, and 404 for an unknown agent', async () => {
    const body = {
      id: 'chat-5',
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'file', mediaType: 'image/png', url: 'data:,' }] }],
    };
    const post = (agent: string) =>
      fetch(`${server.url}/v1/agents/${agent}/ui-stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const bad = await post('helper');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toContain('messages[0].parts[0]');
    expect((await post('nobody')).status).toBe(404);
  });
});
