import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { toolsFromKits } from '../../src/cli/mcp-serve-command.js';
import { mcpTools } from '../../src/tools/node.js';

const MAIN = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts');
const ROOT = join(import.meta.dirname, '..', '..');

function calculatorArgs(schema: { properties?: Record<string, unknown> }, expression: string) {
  return { [Object.keys(schema.properties ?? {})[0]]: expression };
}

describe('thinkflow mcp-serve', { timeout: 120_000 }, () => {
  it('serves the calculator over stdio to the SDK client', async () => {
    const client = new Client({ name: 'sdk-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', MAIN, 'mcp-serve', '--tools', 'calculator'],
        cwd: ROOT,
        env: getDefaultEnvironment(),
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['calculator']);
      const result = await client.callTool({
        name: 'calculator',
        arguments: calculatorArgs(tools[0].inputSchema, '2^10'),
      });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.content)).toContain('1024');
      const bad = await client.callTool({ name: 'calculator', arguments: {} });
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('serves over HTTP with --http 0 and is usable by thinkflow’s own mcpTools', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', MAIN, 'mcp-serve', '--tools', 'calculator', '--http', '0'],
      {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = '';
        child.stderr?.on('data', (chunk: Buffer) => {
          err += chunk.toString();
          const match = /on (http:\/\/\S+)/.exec(err);
          if (match) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`mcp-serve exited with ${code}: ${err}`)));
      });
      const sdk = new Client({ name: 'sdk-test', version: '1.0.0' });
      await sdk.connect(new StreamableHTTPClientTransport(new URL(url)));
      expect((await sdk.listTools()).tools.map((t) => t.name)).toEqual(['calculator']);
      await sdk.close();

      const set = await mcpTools({ url });
      try {
        const calculator = set.tools[0];
        const ctx = {
          signal: new AbortController().signal,
          runId: 'r',
          callId: 'c',
          logger: { debug() {}, info() {}, warn() {}, error() {} },
          approve: async () => false,
        };
        expect(String(await calculator.run(calculatorArgs(calculator.parameters, '1 + 1'), ctx))).toContain('2');
      } finally {
        await set.close();
      }
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('names the available kits when --tools has an unknown one', () => {
    expect(() => toolsFromKits('calculator,nope')).toThrow(/Unknown tool kit "nope"\. Available: .*calculator/);
    expect(() => toolsFromKits(' , ')).toThrow(/--tools needs at least one of/);
  });
});
