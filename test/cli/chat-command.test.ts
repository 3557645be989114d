import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'thinkflow-cli-chat-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The real `thinkflow chat` as a child process, its stdin a pipe we type into. */
function startChat(args: string[]) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'chat', '--data-dir', dir, ...args],
    { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', THINKFLOW_MODEL: undefined }, stdio: 'pipe' },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const waitFor = async (pattern: RegExp | string, stream: 'stdout' | 'stderr' = 'stdout') => {
    const text = () => (stream === 'stdout' ? stdout : stderr);
    while (!(typeof pattern === 'string' ? text().includes(pattern) : pattern.test(text()))) {
      if (child.exitCode !== null) throw new Error(`chat exited before ${pattern}: ${stderr}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return {
    child,
    type: (line: string) => child.stdin.write(`${line}\n`),
    waitFor,
    output: () => stdout,
    errors: () => stderr,
    exit: async () => (child.exitCode ?? (await once(child, 'exit'))[0]) as number | null,
  };
}

function script(name: string, replies: string[]): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(replies));
  return file;
}

describe('thinkflow chat (spawned CLI)', { timeout: 180_000 }, () => {
  it('answers, keeps the session across processes, shows /history and forgets on /reset', async () => {
    const model = `scripted:${script('replies.json', ['Hello, Ada!', 'You told me your name is Ada.'])}`;
    const first = startChat(['--session', 'ada', '--model', model, '--quiet']);
    await first.waitFor('Session "ada" (0 earlier messages)', 'stderr');
    first.type('Hi, I am Ada');
    await first.waitFor('agent> Hello, Ada!');
    first.type('What is my name?');
    await first.waitFor('agent> You told me your name is Ada.');
    first.type('/exit');
    expect(await first.exit()).toBe(0);

    const second = startChat(['--session', 'ada', '--model', model, '--quiet']);
    await second.waitFor('Session "ada" (4 earlier messages)', 'stderr');
    second.type('/history');
    await second.waitFor('agent: You told me your name is Ada.');
    expect(second.output()).toContain('you: Hi, I am Ada');
    second.type('/reset');
    await second.waitFor('(session "ada" reset)');
    second.type('/history');
    await second.waitFor('(this session is empty)');
    second.child.stdin.end(); // Ctrl-D
    expect(await second.exit()).toBe(0);
  });

  it('Ctrl-C stops the current answer, not the REPL', async () => {
    let requests = 0;
    const server: Server = createServer((req) => {
      requests++;
      req.resume(); // never answer: the model "thinks" until the run is aborted
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const chat = startChat([
        '--session',
        'slow',
        '--model',
        `compat:http://127.0.0.1:${port}/v1#slow-model`,
        '--quiet',
      ]);
      await chat.waitFor('earlier messages', 'stderr');
      chat.type('Tell me a long story');
      while (requests === 0) await new Promise((r) => setTimeout(r, 25));
      chat.child.kill('SIGINT');
      await chat.waitFor('(stopped)');
      chat.type('/help');
      await chat.waitFor('Commands: /history');
      expect(chat.child.exitCode).toBeNull();
      chat.type('/exit');
      expect(await chat.exit()).toBe(0);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('explains how to choose a model when none is configured', async () => {
    const chat = startChat([]);
    expect(await chat.exit()).toBe(2);
    expect(chat.errors()).toContain('No model is configured');
  });
});
