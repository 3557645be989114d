import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { ToolContext } from '../../../src/tools/index.js';

/** Path of the SDK-written fixture MCP server. */
export const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'mcp', 'fixture-server.ts');

/** How to start the fixture over stdio, as `mcpTools` options. */
export function stdioFixture(...extra: string[]) {
  return { command: process.execPath, args: ['--import', 'tsx', FIXTURE, ...extra], name: 'fixture' };
}

/** A running HTTP fixture server. */
export interface HttpFixture {
  url: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the fixture over streamable HTTP and waits for its "listening PORT" line. */
export async function startHttpFixture(port = 0): Promise<HttpFixture> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, '--http', '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const bound = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`fixture exited early with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    port: bound,
    process: child,
    stop: () => stopProcess(child),
  };
}

/** Kills a child and waits until it has exited. */
export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** A tool context for calling tools directly. */
export function toolContext(signal = new AbortController().signal): ToolContext {
  const noop = () => undefined;
  return {
    signal,
    runId: 'test-run',
    callId: 'call-1',
    logger: { debug: noop, info: noop, warn: noop, error: noop },
    approve: async () => false,
  };
}
