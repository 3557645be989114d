import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../../src/core/index.js';
import { type McpToolSet, mcpTools } from '../../../src/tools/mcp/index.js';
import { stdioFixture, toolContext } from './fixture-process.js';

describe('mcpTools over stdio (real SDK server process)', { timeout: 60_000 }, () => {
  let set: McpToolSet;
  beforeAll(async () => {
    set = await mcpTools(stdioFixture());
  });
  afterAll(() => set.close());

  const tool = (name: string) => {
    const found = set.tools.find((t) => t.name === name);
    if (!found) throw new Error(`no tool ${name}`);
    return found;
  };

  it('lists the server tools with their descriptions and JSON Schemas', () => {
    expect(set.tools.map((t) => t.name).sort()).toEqual([
      'add',
      'ask_model',
      'crash',
      'echo',
      'embedded',
      'fail',
      'grow',
      'picture',
      'stats.pid',
    ]);
    const echo = tool('echo');
    expect(echo.description).toBe('Echoes the text back.');
    expect(echo.parameters).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string', description: 'What to echo' } },
      required: ['text'],
    });
  });

  it('validates inputs against the converted schema', () => {
    expect(tool('add').parse({ a: 1, b: 2 })).toEqual({ ok: true, value: { a: 1, b: 2 } });
    const bad = tool('add').parse({ a: 'one', b: 2 });
    expect(bad.ok).toBe(false);
  });

  it('calls tools and returns their text content', async () => {
    expect(await tool('echo').run({ text: 'hi' }, toolContext())).toBe('echo: hi');
    expect(await tool('add').run({ a: 2, b: 40 }, toolContext())).toBe('42');
  });

  it('keeps a dotted MCP tool name as it is (MCP allows it) and calls the tool by it', async () => {
    expect(Number(await tool('stats.pid').run({}, toolContext()))).toBeGreaterThan(0);
  });

  it('fetches the tool list again when the server says it changed, so a tool added later can be called', async () => {
    expect(await tool('grow').run({}, toolContext())).toBe('grown');
    await vi.waitFor(() => expect(set.tools.map((t) => t.name)).toContain('late'));
    expect(await tool('late').run({}, toolContext())).toBe('late tool ran');
  });

  it('returns images as image parts (a vision model sees them) and resource links as placeholders', async () => {
    expect(await tool('picture').run({}, toolContext())).toEqual([
      { type: 'image', data: 'cG5nYnl0ZXM=', mediaType: 'image/png' },
      { type: 'text', text: '[resource: file:///tmp/a.txt (a.txt)]' },
    ]);
  });

  it('turns isError results into a thrown tool error carrying the server text', async () => {
    await expect(tool('fail').run({}, toolContext())).rejects.toMatchObject({ code: 'tool', message: 'disk is full' });
  });

  it('reports protocol errors as tool errors and keeps the connection', async () => {
    await expect(tool('add').run({ a: 'x' } as never, toolContext())).rejects.toMatchObject({ code: 'tool' });
    expect(await tool('echo').run({ text: 'still here' }, toolContext())).toBe('echo: still here');
  });

  it('applies a prefix to tool names', async () => {
    const prefixed = await mcpTools({ ...stdioFixture(), prefix: 'fx_' });
    try {
      expect(prefixed.tools.map((t) => t.name)).toContain('fx_echo');
      expect(await prefixed.tools.find((t) => t.name === 'fx_echo')?.run({ text: 'p' }, toolContext())).toBe('echo: p');
    } finally {
      await prefixed.close();
    }
  });

  it('throws a ConfigError naming the server when the first connection fails', async () => {
    const error = await mcpTools({ command: process.execPath, args: ['-e', 'process.exit(2)'], name: 'broken' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/Could not connect to MCP server "broken"/);
  });
});
