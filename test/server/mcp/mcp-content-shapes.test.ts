import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type McpPrompt, type McpServing, serveMcp } from '../../../src/server/index.js';
import { defineTool } from '../../../src/tools/index.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

// Each case: what a tool returns in the MCP specification's shapes, in thinkflow's, and the blocks a client gets.
const CASES: Record<string, { spec: unknown; thinkflow: unknown; blocks: unknown[] }> = {
  image: {
    spec: { type: 'image', data: PNG, mimeType: 'image/png' },
    thinkflow: { type: 'image', data: PNG, mediaType: 'image/png' },
    blocks: [{ type: 'image', data: PNG, mimeType: 'image/png' }],
  },
  audio: {
    spec: { type: 'audio', data: WAV, mimeType: 'audio/wav' },
    thinkflow: { type: 'audio', data: WAV, mediaType: 'audio/wav' },
    blocks: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }],
  },
  text_resource: {
    spec: { type: 'resource', resource: { uri: 'test://r', mimeType: 'text/plain', text: 'inside' } },
    thinkflow: { type: 'resource', uri: 'test://r', mediaType: 'text/plain', text: 'inside' },
    blocks: [{ type: 'resource', resource: { uri: 'test://r', mimeType: 'text/plain', text: 'inside' } }],
  },
  blob_resource: {
    spec: { type: 'resource', resource: { uri: 'test://b', mimeType: 'image/png', blob: PNG } },
    thinkflow: { type: 'resource', uri: 'test://b', mediaType: 'image/png', data: PNG },
    blocks: [{ type: 'resource', resource: { uri: 'test://b', mimeType: 'image/png', blob: PNG } }],
  },
  resource_link: {
    spec: { type: 'resource_link', uri: 'test://l', name: 'l', mimeType: 'text/plain', description: 'a link' },
    thinkflow: { type: 'resource_link', uri: 'test://l', name: 'l', mediaType: 'text/plain', description: 'a link' },
    blocks: [{ type: 'resource_link', uri: 'test://l', name: 'l', mimeType: 'text/plain', description: 'a link' }],
  },
  mixed: {
    spec: [
      { type: 'text', text: 'Mixed:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'test://m', mimeType: 'application/json', text: '{"a":1}' } },
    ],
    thinkflow: [
      'Mixed:',
      { type: 'image', data: PNG, mediaType: 'image/png' },
      { type: 'resource', uri: 'test://m', mediaType: 'application/json', text: '{"a":1}' },
    ],
    blocks: [
      { type: 'text', text: 'Mixed:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'test://m', mimeType: 'application/json', text: '{"a":1}' } },
    ],
  },
};

const returning = (name: string, value: unknown) =>
  defineTool({ name, description: `Returns ${name}.`, input: z.object({}), run: () => value });

const tools = [
  ...Object.entries(CASES).flatMap(([name, c]) => [
    returning(`spec_${name}`, c.spec),
    returning(`own_${name}`, c.thinkflow),
  ]),
  returning('annotated', {
    type: 'text',
    text: 'for the user',
    annotations: { audience: ['user'], priority: 0.5 },
  }),
  returning('image_without_type', { type: 'image', data: PNG }),
  returning('flat_nested_mix', [
    { type: 'text', text: 'ok' },
    { type: 'resource', resource: { uri: 'x' } },
  ]),
  returning('unknown_in_array', [
    { type: 'text', text: 'ok' },
    { type: 'video', data: 'x' },
  ]),
  returning('plain_data', [
    { type: 'file', name: 'a.txt' },
    { type: 'dir', name: 'b' },
  ]),
];

const prompts: McpPrompt[] = [
  {
    name: 'spec_shapes',
    get: () => [
      {
        role: 'user',
        content: { type: 'resource', resource: { uri: 'test://p', mimeType: 'text/plain', text: 'doc' } },
      },
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'assistant', content: { type: 'text', text: 'Seen.' } },
    ],
  },
  {
    name: 'own_shapes',
    get: () => [
      { role: 'user', content: { type: 'resource', uri: 'test://p', mediaType: 'text/plain', text: 'doc' } },
      { role: 'user', content: { type: 'image', data: PNG, mediaType: 'image/png' } },
      { role: 'assistant', content: 'Seen.' },
    ],
  },
  { name: 'unreadable_part', get: () => [{ role: 'user', content: { type: 'audio', data: WAV } }] },
  // What a JavaScript author (no type checks) could return.
  { name: 'unreadable_result', get: () => 42 as never },
  { name: 'no_role', get: () => [{ content: 'hi' }] as never },
];

let serving: McpServing;
let client: Client;
beforeAll(async () => {
  serving = await serveMcp(tools, { transport: 'http', port: 0, prompts });
  client = new Client({ name: 'shapes-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(serving.url ?? '')));
});
afterAll(async () => {
  await client?.close();
  await serving?.close();
});

const call = (name: string) => client.callTool({ name, arguments: {} });

describe('serveMcp reads the MCP specification content blocks and its own parts alike', () => {
  it.each(Object.entries(CASES))('%s: both shapes give the same MCP content', async (name, c) => {
    const spec = await call(`spec_${name}`);
    const own = await call(`own_${name}`);
    expect(spec.isError).toBeFalsy();
    expect(spec.content).toEqual(c.blocks);
    expect(own.content).toEqual(c.blocks);
  });

  it('keeps the annotations a block carries', async () => {
    const result = await call('annotated');
    expect(result.content).toEqual([
      { type: 'text', text: 'for the user', annotations: { audience: ['user'], priority: 0.5 } },
    ]);
  });

  it.each([
    [
      'image_without_type',
      /the part \(type 'image': needs mimeType \(or mediaType\)\); write \{ type: 'image', data: <base64>, mimeType \}/,
    ],
    [
      'flat_nested_mix',
      /item 1 \(type 'resource'.*write \{ type: 'resource', resource: \{ uri, mimeType\?, text \} \}/,
    ],
    ['unknown_in_array', /item 1 is not a content part \(its type is "video"\); write one of/],
  ])('refuses content it cannot read (%s) as an error naming the shape to write', async (name, why) => {
    const result = await call(name);
    expect(result.isError).toBe(true);
    const text = (result.content as Array<{ text: string }>)[0].text;
    expect(text).toMatch(new RegExp(`^Tool "${name}" returned content MCP cannot read: `));
    expect(text).toMatch(why);
  });

  it('serves data that merely has a type field as JSON text, as before', async () => {
    const result = await call('plain_data');
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([
      {
        type: 'text',
        text: JSON.stringify([
          { type: 'file', name: 'a.txt' },
          { type: 'dir', name: 'b' },
        ]),
      },
    ]);
  });

  it('fills prompts written in either shape with the same messages', async () => {
    const expected = [
      {
        role: 'user',
        content: { type: 'resource', resource: { uri: 'test://p', mimeType: 'text/plain', text: 'doc' } },
      },
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'assistant', content: { type: 'text', text: 'Seen.' } },
    ];
    expect((await client.getPrompt({ name: 'spec_shapes' })).messages).toEqual(expected);
    expect((await client.getPrompt({ name: 'own_shapes' })).messages).toEqual(expected);
  });

  it.each([
    ['unreadable_part', /Prompt "unreadable_part" message 0 holds content MCP cannot read: .*write \{ type: 'audio'/],
    ['unreadable_result', /Prompt "unreadable_result" returned neither text, messages/],
    ['no_role', /Prompt "no_role" message 0 needs role 'user' or 'assistant'/],
  ])('refuses a prompt it cannot read (%s) with an error naming the shape', async (name, why) => {
    await expect(client.getPrompt({ name })).rejects.toThrow(why);
  });
});
