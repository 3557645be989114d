import { afterEach, describe, expect, it } from 'vitest';
import { type McpToolSet, mcpTools } from '../../../src/tools/mcp/index.js';
import { type HttpFixture, startHttpFixture, toolContext } from './fixture-process.js';

function pick(set: McpToolSet, name: string) {
  const tool = set.tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

describe('mcpTools over streamable HTTP (real SDK server process)', { timeout: 60_000 }, () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function fixture(port?: number): Promise<HttpFixture> {
    const server = await startHttpFixture(port);
    cleanups.push(() => server.stop());
    return server;
  }

  it('lists and calls tools, and turns isError into a tool error', async () => {
    const server = await fixture();
    const set = await mcpTools({ url: server.url, headers: { Authorization: 'Bearer secret-token' } });
    cleanups.push(() => set.close());
    expect(set.server).toBe(`http://127.0.0.1:${server.port}/mcp`);
    expect(set.tools.map((t) => t.name)).toContain('add');
    expect(await pick(set, 'add').run({ a: 1.5, b: 2 }, toolContext())).toBe('3.5');
    await expect(pick(set, 'fail').run({}, toolContext())).rejects.toMatchObject({ message: 'disk is full' });
  });

  it('survives a server crash mid-call and reconnects once the server is back', async () => {
    const first = await fixture();
    const set = await mcpTools({ url: first.url });
    cleanups.push(() => set.close());
    const pidBefore = await pick(set, 'stats.pid').run({}, toolContext());

    const crashed = await Promise.resolve(pick(set, 'crash').run({}, toolContext())).catch((e: unknown) => e);
    expect(crashed).toMatchObject({ code: 'tool' });
    expect((crashed as Error).message).toMatch(/stopped during the call to "crash".*restarted on the next call/);
    expect((crashed as Error).message).not.toMatch(/secret/);

    await new Promise<void>((resolve) => {
      if (first.process.exitCode !== null) resolve();
      else first.process.once('exit', () => resolve());
    });
    await fixture(first.port);
    expect(await pick(set, 'echo').run({ text: 'again' }, toolContext())).toBe('echo: again');
    expect(await pick(set, 'stats.pid').run({}, toolContext())).not.toBe(pidBefore);
  });

  it('gives a readable failure while the server is down, never a crash', async () => {
    const server = await fixture();
    const set = await mcpTools({ url: server.url, maxRestarts: 1 });
    cleanups.push(() => set.close());
    await server.stop();
    // Whether the client notices the stop before the first call or during it is a race; either way each
    // call fails with a readable message, one restart is tried, and then the server is reported gone.
    const messages: string[] = [];
    for (let i = 0; i < 3; i++) {
      const error = await Promise.resolve(pick(set, 'echo').run({ text: 'x' }, toolContext())).catch((e: unknown) => e);
      messages.push((error as Error).message);
    }
    for (const message of messages) expect(message).toMatch(/MCP server ".*" (stopped|is gone)/);
    expect(messages.some((m) => /could not be restarted/.test(m))).toBe(true);
    expect(messages[2]).toMatch(/is gone/);
  });
});
