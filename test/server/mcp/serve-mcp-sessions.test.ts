import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type McpHttpServing, serveMcp } from '../../../src/server/index.js';
import { defineTool } from '../../../src/tools/index.js';

describe('serveMcp over streamable HTTP: sessions', { timeout: 30_000 }, () => {
  let serving: McpHttpServing;
  beforeAll(async () => {
    const wipe = defineTool({
      name: 'wipe',
      description: 'Deletes everything.',
      input: z.object({}),
      needsApproval: true,
      run: () => 'wiped',
    });
    const ask = defineTool({
      name: 'whoami',
      description: 'Asks the person their name.',
      input: z.object({}),
      run: async (_, ctx) => `Hello, ${await ctx.ask?.('Your name?')}.`,
    });
    serving = await serveMcp([wipe, ask], {
      transport: 'http',
      resources: [{ uri: 'notes://today', name: 'today', read: () => 'Buy milk.' }],
    });
  });
  afterAll(() => serving?.close());

  async function connect(answer: (message: string) => Record<string, unknown> | undefined) {
    const client = new Client({ name: 'test', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      const content = answer(request.params.message);
      return content ? { action: 'accept', content: content as Record<string, string> } : { action: 'decline' };
    });
    const transport = new StreamableHTTPClientTransport(new URL(serving.url));
    await client.connect(transport);
    return { client, transport };
  }

  it('answers GET without a session with 405, not a stream that closes at once', async () => {
    const response = await fetch(serving.url, { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.json()).toMatchObject({ error: { message: expect.stringContaining('Mcp-Session-Id') } });
  });

  it('opens a session on initialize and keeps it, so a tool can ask the client (approval and ask via elicitation)', async () => {
    const { client, transport } = await connect((message) =>
      message.includes('wipe') ? { approve: true } : { answer: 'Ada' },
    );
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const wiped = await client.callTool({ name: 'wipe', arguments: {} });
    expect(wiped).toMatchObject({ content: [{ type: 'text', text: 'wiped' }] });
    expect(await client.callTool({ name: 'whoami', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'Hello, Ada.' }],
    });
    await client.close();
  });

  it('denies an approval the person declines, and says so', async () => {
    const { client } = await connect(() => undefined);
    expect(await client.callTool({ name: 'wipe', arguments: {} })).toMatchObject({
      isError: true,
      content: [{ text: 'Tool "wipe" was not approved.' }],
    });
    await client.close();
  });

  it('tells a subscribed session that a resource changed', async () => {
    const { client } = await connect(() => undefined);
    const updated = new Promise<string>((resolve) =>
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)),
    );
    await client.subscribeResource({ uri: 'notes://today' });
    await serving.resourceUpdated('notes://today');
    expect(await updated).toBe('notes://today');
    await client.close();
  });

  it('answers an unknown session id with 404 naming the fix', async () => {
    const response = await fetch(serving.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': 'nope',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { message: expect.stringContaining('initialize') } });
  });
});
