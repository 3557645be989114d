import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type McpToolSet, mcpTools } from '../../../src/tools/mcp/index.js';
import { stdioFixture, toolContext } from './fixture-process.js';

function pick(set: McpToolSet, name: string) {
  const tool = set.tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

describe('mcpTools when the server crashes mid-call', { timeout: 60_000 }, () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('fails the call with a readable tool error, then restarts the server on the next call', async () => {
    const set = await mcpTools(stdioFixture());
    cleanups.push(() => set.close());
    const pidBefore = await pick(set, 'stats.pid').run({}, toolContext());

    const crashed = await Promise.resolve(pick(set, 'crash').run({}, toolContext())).catch((e: unknown) => e);
    expect(crashed).toMatchObject({ code: 'tool' });
    expect((crashed as Error).message).toMatch(/MCP server "fixture" stopped during the call to "crash"/);
    expect((crashed as Error).message).toMatch(/restarted on the next call/);
    expect((crashed as Error).message).toMatch(/crashing on purpose/);

    expect(await pick(set, 'echo').run({ text: 'back' }, toolContext())).toBe('echo: back');
    const pidAfter = await pick(set, 'stats.pid').run({}, toolContext());
    expect(pidAfter).not.toBe(pidBefore);
  });

  it('says the server is gone once its restarts are used up', async () => {
    const set = await mcpTools({ ...stdioFixture(), maxRestarts: 0 });
    cleanups.push(() => set.close());
    const crashed = await Promise.resolve(pick(set, 'crash').run({}, toolContext())).catch((e: unknown) => e);
    expect((crashed as Error).message).toMatch(/It will not be restarted/);
    const next = await Promise.resolve(pick(set, 'echo').run({ text: 'x' }, toolContext())).catch((e: unknown) => e);
    expect(next).toMatchObject({ code: 'tool' });
    expect((next as Error).message).toMatch(/MCP server "fixture" is gone .*Its tools are unavailable/);
  });

  it('reports a server that refuses to come back, with its stderr, and gives up after the bound', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'thinkflow-mcp-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const set = await mcpTools({ ...stdioFixture('--refuse-if', join(dir, 'crashed')), maxRestarts: 2 });
    cleanups.push(() => set.close());
    await Promise.resolve(pick(set, 'crash').run({}, toolContext())).catch(() => undefined);

    const messages: string[] = [];
    for (let i = 0; i < 3; i++) {
      const error = await Promise.resolve(pick(set, 'echo').run({ text: 'x' }, toolContext())).catch((e: unknown) => e);
      messages.push((error as Error).message);
    }
    expect(messages[0]).toMatch(/stopped and could not be restarted: .*refusing to start/);
    expect(messages[1]).toMatch(/could not be restarted/);
    expect(messages[2]).toMatch(/is gone \(it stopped and was restarted 2 times already/);
  });

  it('rejects calls after close with a clear message and closing twice is safe', async () => {
    const set = await mcpTools(stdioFixture());
    await set.close();
    await set.close();
    const error = await Promise.resolve(pick(set, 'echo').run({ text: 'x' }, toolContext())).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/is gone \(the tool set was closed\)/);
  });
});
