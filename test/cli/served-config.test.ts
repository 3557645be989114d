import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../server/server-fixtures.js';
import { spawnCli } from '../server/spawn-server.js';
import { CLI_ENTRY, runCli } from './run-cli.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const ECHO = join(import.meta.dirname, '..', 'server', 'security', 'attack-config.fixture.ts');

/** `thinkflow mcp-serve --http 0` as a child, resolved with its URL once it serves. */
function spawnMcpServe(args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI_ENTRY, 'mcp-serve', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const match = /on (http:\/\/\S+)/.exec(err);
      if (match) resolve({ child, url: match[1] });
    });
    child.once('exit', () => reject(new Error(err)));
  });
}

const listTools = (url: string, token?: string) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
  });

describe('a token from several sources is one credential', { timeout: 120_000 }, () => {
  it('serve starts with the same token in THINKFLOW_API_TOKENS and --token, and accepts it', async () => {
    const dir = tempDir();
    const server = await spawnCli(['serve', '--config', ECHO, '--port', '0', '--data-dir', dir.path, '--token', 't'], {
      THINKFLOW_API_TOKENS: 't,t',
    });
    try {
      expect((await fetch(`${server.url}/v1/runs`)).status).toBe(401);
      expect((await fetch(`${server.url}/v1/runs`, { headers: { authorization: 'Bearer t' } })).status).toBe(200);
    } finally {
      await server.kill();
      dir.cleanup();
    }
  });

  it('mcp-serve starts with the same token in THINKFLOW_API_TOKENS and --token, and accepts it', async () => {
    const { child, url } = await spawnMcpServe(
      ['--tools', 'calculator', '--http', '0', '--token', 't', '--token', 't'],
      {
        THINKFLOW_API_TOKENS: 't',
      },
    );
    try {
      expect((await listTools(url)).status).toBe(401);
      expect((await listTools(url, 't')).status).toBe(200);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('serve refuses at start one token given to two principals, naming the principals and not the token', async () => {
    const dir = tempDir();
    try {
      const result = await runCli([
        'serve',
        '--config',
        join(FIXTURES, 'shared-token.config.ts'),
        '--port',
        '0',
        '--data-dir',
        dir.path,
        '--token',
        'shared',
      ]);
      expect(result.code, result.stderr).not.toBe(0);
      expect(result.stderr).toMatch(
        /gives a token listed before it to "token:[0-9a-f]{16}", but it already names "alice"/,
      );
      expect(result.stderr).not.toMatch(/\bat \S+ \(/);
    } finally {
      dir.cleanup();
    }
  });
});

describe('what a config serves', { timeout: 120_000 }, () => {
  it('a config of workflows and no agents serves its workflows', async () => {
    const dir = tempDir();
    const server = await spawnCli(
      ['serve', '--config', join(FIXTURES, 'workflows-only.config.ts'), '--port', '0', '--data-dir', dir.path],
      { THINKFLOW_API_TOKENS: '' },
    );
    try {
      expect(server.stderr()).toContain('serving workflow shout on');
      const answer = await fetch(`${server.url}/v1/workflows/shout/runs?wait=true`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ input: 'hello' }),
      });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ status: 'done', workflow: 'shout', output: 'HELLO' });
    } finally {
      await server.kill();
      dir.cleanup();
    }
  });

  it('a config with neither agents nor workflows is refused with a message naming both', async () => {
    const dir = tempDir();
    try {
      const result = await runCli([
        'serve',
        '--config',
        join(FIXTURES, 'nothing-served.config.ts'),
        '--port',
        '0',
        '--data-dir',
        dir.path,
      ]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/serves nothing: .*at least one agent, or .*at least one workflow/);
    } finally {
      dir.cleanup();
    }
  });
});
