import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SendMessageRequest, type StreamResponse } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { HttpAgent } from '@ag-ui/client';
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { loadConfig } from '../../../src/server/index.js';
import { defineTool } from '../../../src/tools/index.js';
import { tempDir } from '../server-fixtures.js';
import { startServer } from './protocol-fixtures.js';

const lookup = defineTool({ name: 'lookup', description: 'Looks up.', input: z.object({}), run: () => '42' });
const dir = tempDir();
let server: Awaited<ReturnType<typeof startServer>>;
let client: OpenAI;

beforeAll(async () => {
  // The data config a user writes first: the demo model (a ReAct agent) with the calculator.
  const file = join(dir.path, 'thinkflow.config.yaml');
  writeFileSync(file, 'agents:\n  demo:\n    model: demo\n    tools: [calculator]\n');
  const data = await loadConfig(file);
  server = await startServer({
    ...data.agents,
    // A ReAct agent that thinks, acts, then answers.
    reacter: () =>
      new Agent({
        protocol: 'react',
        model: scriptedModel([
          'Thought: I should look it up.\nAction: lookup\nAction Input: {}',
          'Thought: I know it now.\nFinal Answer: The answer is 42, as the lookup says.',
        ]),
        tools: [lookup],
      }),
    // A JSON-protocol agent.
    jsoner: () =>
      new Agent({
        protocol: 'json',
        model: scriptedModel([
          '{"action": "lookup", "action_input": {}}',
          '{"action": "final_answer", "action_input": "The answer is 42, as the lookup says."}',
        ]),
        tools: [lookup],
      }),
    // Native agents whose model writes its actions as text (small local models): ReAct lines, a JSON action.
    textReact: () =>
      new Agent({
        model: scriptedModel([
          'Thought: I should look it up.\nAction: lookup\nAction Input: {}',
          'The answer is 42, as the lookup says.',
        ]),
        tools: [lookup],
      }),
    textJson: () =>
      new Agent({
        model: scriptedModel(['{"name": "lookup", "arguments": {}}', 'The answer is 42, as the lookup says.']),
        tools: [lookup],
      }),
    // A native agent whose model thinks aloud in a <think> block before it answers.
    thinker: () =>
      new Agent({ model: scriptedModel(['<think>Easy one.</think>The answer is 42, as the lookup says.']) }),
    // A native agent that says something before its tool call.
    speaker: () =>
      new Agent({
        model: scriptedModel([
          { text: 'Let me look that up for you. ', toolCalls: [{ id: 'c1', name: 'lookup', arguments: '{}' }] },
          'The answer is 42, as the lookup says.',
        ]),
        tools: [lookup],
      }),
  });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'none', maxRetries: 0 });
});
afterAll(async () => {
  await server?.close();
  dir.cleanup();
});

/** The blank line a chat reply puts between the text segments the UI protocols give as messages. */
const join2 = (segments: string[]) => segments.join('\n\n');

async function chat(model: string, content: string) {
  const messages = [{ role: 'user' as const, content }];
  const plain = await client.chat.completions.create({ model, messages });
  let streamed = '';
  for await (const chunk of await client.chat.completions.create({ model, messages, stream: true })) {
    streamed += chunk.choices[0]?.delta.content ?? '';
  }
  return { plain: plain.choices[0].message.content ?? '', streamed };
}

async function uiStream(agent: string, chatId: string, text: string): Promise<string[]> {
  const transport = new DefaultChatTransport<UIMessage>({ api: `${server.url}/v1/agents/${agent}/ui-stream` });
  const stream = await transport.sendMessages({
    chatId,
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text }] }],
    trigger: 'submit-message',
    messageId: undefined,
    abortSignal: undefined,
  });
  let message: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({ stream })) message = snapshot;
  return (message?.parts ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : []));
}

async function agUi(agent: string, threadId: string, content: string): Promise<string[]> {
  const http = new HttpAgent({ url: `${server.url}/v1/agents/${agent}/ag-ui`, threadId });
  http.addMessage({ id: 'u1', role: 'user', content });
  const { newMessages } = await http.runAgent();
  return newMessages.flatMap((m) => (m.role === 'assistant' && m.content ? [m.content] : []));
}

/** The A2A answer artifact as it streamed (before the final replacement), and as message/send returns it. */
async function a2a(agent: string, text: string): Promise<{ streamed: string; sent: string }> {
  const client = await new ClientFactory().createFromUrl(`${server.url}/a2a/${agent}/`);
  const request = () =>
    SendMessageRequest.fromJSON({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] } });
  let streamed = '';
  for await (const event of client.sendMessageStream(request()) as AsyncIterable<StreamResponse>) {
    const payload = event.payload;
    if (payload?.$case !== 'artifactUpdate' || payload.value.lastChunk) continue;
    const piece = payload.value.artifact?.parts[0]?.content;
    if (piece?.$case === 'text') streamed += piece.value;
  }
  const task = await client.sendMessage(request());
  const artifacts = 'artifacts' in task ? task.artifacts : [];
  const sent = artifacts
    .flatMap((a) => a.parts)
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .join('');
  return { streamed, sent };
}

describe('the same answer from every stream', () => {
  const cases = [
    { agent: 'demo', question: 'What is (15 + 7) * 3?', answer: '[demo simulation, no real LLM] (15 + 7) * 3 = 66' },
    { agent: 'reacter', question: 'What is the answer?', answer: 'The answer is 42, as the lookup says.' },
    { agent: 'jsoner', question: 'What is the answer?', answer: 'The answer is 42, as the lookup says.' },
    { agent: 'textReact', question: 'What is the answer?', answer: 'The answer is 42, as the lookup says.' },
    { agent: 'textJson', question: 'What is the answer?', answer: 'The answer is 42, as the lookup says.' },
    { agent: 'thinker', question: 'What is the answer?', answer: 'The answer is 42, as the lookup says.' },
    {
      agent: 'speaker',
      question: 'What is the answer?',
      answer: 'Let me look that up for you. \n\nThe answer is 42, as the lookup says.',
    },
  ];
  for (const { agent, question, answer } of cases) {
    it(`${agent}: chat completions, the UI message stream, AG-UI and A2A stream the non-streamed answer`, async () => {
      const { plain, streamed } = await chat(agent, question);
      expect(plain).toBe(answer);
      expect(streamed).toBe(plain);
      const ui = await uiStream(agent, `same-ui-${agent}`, question);
      expect(join2(ui)).toBe(plain);
      const ag = await agUi(agent, `same-ag-${agent}`, question);
      expect(join2(ag)).toBe(plain);
      const { streamed: a2aStreamed, sent } = await a2a(agent, question);
      // A2A streams the answer text as it comes, then its task artifact, the final answer, replaces it.
      expect(a2aStreamed).toBe(plain);
      expect(sent).toBe(plain.split('\n\n').at(-1));
    });
  }
});
