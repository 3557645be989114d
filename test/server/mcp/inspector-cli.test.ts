import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type McpHttpServing, serveMcp } from '../../../src/server/index.js';
import { calculatorTool, defineTool } from '../../../src/tools/index.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../../..');
// inspector-cli 1.0.3 reads its own package.json relative to the working directory.
const INSPECTOR = join(ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build');
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

async function inspect(args: string[]): Promise<unknown> {
  const { stdout } = await run(process.execPath, [join(INSPECTOR, 'cli.js'), '--cli', ...args], {
    cwd: INSPECTOR,
    timeout: 60_000,
  });
  return JSON.parse(stdout);
}

describe('@modelcontextprotocol/inspector-cli against serveMcp and mcp-serve', { timeout: 90_000 }, () => {
  let serving: McpHttpServing;
  const http = () => [serving.url, '--transport', 'http'];

  beforeAll(async () => {
    const chart = defineTool({
      name: 'chart',
      title: 'Sales chart',
      description: 'Draws the chart.',
      annotations: { readOnlyHint: true },
      input: z.object({}),
      run: () => [
        { type: 'text', text: 'Sales per month' },
        { type: 'image', data: PNG, mediaType: 'image/png' },
      ],
    });
    serving = await serveMcp([calculatorTool, chart], {
      transport: 'http',
      resources: [{ uri: 'notes://today', name: 'today', mimeType: 'text/plain', read: () => 'Buy milk.' }],
      resourceTemplates: [
        { uriTemplate: 'notes://day/{date}', name: 'day', read: (_uri, { date }) => `Notes of ${date}.` },
      ],
      prompts: [
        {
          name: 'review',
          description: 'Review a file',
          arguments: [{ name: 'path', required: true }],
          get: ({ path }) => `Review ${path} for bugs.`,
        },
      ],
    });
  });
  afterAll(() => serving?.close());

  it('lists tools with their title, annotations and JSON Schema dialect', async () => {
    const listed = (await inspect([...http(), '--method', 'tools/list'])) as { tools: Array<Record<string, unknown>> };
    const chart = listed.tools.find((t) => t.name === 'chart');
    expect(chart).toMatchObject({
      title: 'Sales chart',
      annotations: { readOnlyHint: true },
      inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' },
    });
  });

  it('gets an image part as MCP image content', async () => {
    const result = await inspect([...http(), '--method', 'tools/call', '--tool-name', 'chart']);
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'Sales per month' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
      ],
    });
  });

  it('reads resources and templates, and fills in prompts', async () => {
    expect(await inspect([...http(), '--method', 'resources/read', '--uri', 'notes://day/2026-12-01'])).toEqual({
      contents: [{ uri: 'notes://day/2026-12-01', text: 'Notes of 2026-12-01.' }],
    });
    const listed = (await inspect([...http(), '--method', 'resources/list'])) as { resources: unknown[] };
    expect(listed.resources).toEqual([{ uri: 'notes://today', name: 'today', mimeType: 'text/plain' }]);
    expect(
      await inspect([...http(), '--method', 'prompts/get', '--prompt-name', 'review', '--prompt-args', 'path=a.ts']),
    ).toEqual({
      description: 'Review a file',
      messages: [{ role: 'user', content: { type: 'text', text: 'Review a.ts for bugs.' } }],
    });
  });

  it('calls the calculator of `thinkflow mcp-serve` over stdio', async () => {
    const result = (await inspect([
      process.execPath,
      join(ROOT, 'dist/cli/main.js'),
      'mcp-serve',
      '--tools',
      'calculator',
      '--method',
      'tools/call',
      '--tool-name',
      'calculator',
      '--tool-arg',
      'expression=6*7',
    ])) as { content: Array<{ text: string }> };
    expect(result.content[0].text).toContain('42');
  });
});
