import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { type RunningServer, serve } from '../../../src/server/index.js';
import { tempDir } from '../server-fixtures.js';

let server: RunningServer;
let dir: ReturnType<typeof tempDir>;
let client: OpenAI;

beforeAll(async () => {
  dir = tempDir();
  server = await serve({
    port: 0,
    log: () => {},
    config: {
      auth: { tokens: ['test-token'] },
      store: { type: 'sqlite', path: join(dir.path, 'runs.db') },
      agents: { looker: () => new Agent({ model: scriptedModel(['I see it.']) }) },
    },
  });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test-token', maxRetries: 0 });
});

afterAll(async () => {
  await server.close();
  dir.cleanup();
});

describe('POST /v1/chat/completions with images', () => {
  it('refuses an image part with a 400 naming it, rather than dropping it', async () => {
    const error = await client.chat.completions
      .create({
        model: 'looker',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'what is this?' },
              { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
            ],
          },
        ],
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, message: expect.stringContaining('"image_url" content part') });
  });

  it('still answers text parts', async () => {
    const reply = await client.chat.completions.create({
      model: 'looker',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
    });
    expect(reply.choices[0].message.content).toBe('I see it.');
  });
});
