import { SendMessageRequest } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { HttpAgent } from '@ag-ui/client';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './protocol-fixtures.js';
import { LIVE_ANSWER, type StreamingModel, startStreamingModel } from './streaming-model.js';

let model: StreamingModel;
let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  model = await startStreamingModel();
  server = await startServer(model.agents);
});
afterAll(async () => {
  await server?.close();
  await model?.close();
});

/** What a client received: its answer pieces, and how many model deltas were sent when the first arrived. */
interface Received {
  pieces: string[];
  sentAtFirst: number | undefined;
}

function receiver(): Received & { add(piece: string): void } {
  const received: Received & { add(piece: string): void } = {
    pieces: [],
    sentAtFirst: undefined,
    add(piece) {
      if (piece === '') return;
      received.sentAtFirst ??= model.sent;
      received.pieces.push(piece);
    },
  };
  return received;
}

const clients: Record<string, (agent: string) => Promise<Received>> = {
  async openai(agent) {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'none', maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: agent,
      messages: [{ role: 'user', content: 'What is the answer?' }],
      stream: true,
    });
    const got = receiver();
    for await (const chunk of stream) got.add(chunk.choices[0]?.delta.content ?? '');
    return got;
  },
  async 'ag-ui'(agent) {
    const client = new HttpAgent({ url: `${server.url}/v1/agents/${agent}/ag-ui`, threadId: crypto.randomUUID() });
    client.addMessage({ id: 'u1', role: 'user', content: 'What is the answer?' });
    const got = receiver();
    await client.runAgent(undefined, {
      onTextMessageContentEvent: ({ event }) => void got.add(event.delta),
    });
    return got;
  },
  async a2a(agent) {
    const client = await new ClientFactory().createFromUrl(`${server.url}/a2a/${agent}/`);
    const got = receiver();
    const request = SendMessageRequest.fromJSON({
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'What is the answer?' }] },
    });
    for await (const event of client.sendMessageStream(request)) {
      const payload = event.payload;
      // The streamed pieces; the last chunk repeats the artifact whole.
      if (payload?.$case !== 'artifactUpdate' || payload.value.lastChunk) continue;
      const part = payload.value.artifact?.parts[0]?.content;
      if (part?.$case === 'text') got.add(part.value);
    }
    return got;
  },
};

describe.each(['live-native', 'live-react'])('the answer of %s streams to every client', (agent) => {
  it.each(Object.keys(clients))('%s gets it in pieces as the model writes it', async (client) => {
    const got = await clients[client](agent);
    expect(got.pieces.join('')).toBe(LIVE_ANSWER);
    expect(got.pieces.length).toBeGreaterThanOrEqual(4);
    // The first piece came while the model was still writing: before its last delta was sent.
    expect(got.sentAtFirst).toBeLessThan(4);
  });
});
