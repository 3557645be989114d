import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../server/server-fixtures.js';
import { spawnCli } from '../server/spawn-server.js';
import { CLI_ENTRY, runCli } from './run-cli.js';

const CONFIG = join(import.meta.dirname, '..', 'server', 'security', 'attack-config.fixture.ts');

describe('the serving commands take --token and refuse a token no client can send', { timeout: 120_000 }, () => {
  it('serve, studio and mcp-serve stop at start-up on a token outside the bearer alphabet, naming the fix', async () => {
    const dir = tempDir();
    try {
      const runs = await Promise.all([
        runCli(['serve', '--config', CONFIG, '--port', '0', '--data-dir', dir.path, '--token', 'change me!']),
        runCli(['studio', '--config', CONFIG, '--port', '0', '--data-dir', dir.path], {
          env: { THINKFLOW_API_TOKENS: 'abc:def' },
        }),
        runCli(['mcp-serve', '--tools', 'calculator', '--http', '0', '--token', 'abc:def']),
      ]);
      for (const result of runs) {
        expect(result.code, result.stderr).not.toBe(0);
        expect(result.stderr).toContain('which a bearer token cannot carry');
        expect(result.stderr).not.toContain('change me!');
        expect(result.stderr).not.toMatch(/\bat \S+ \(/);
      }
    } finally {
      dir.cleanup();
    }
  });

  it('serve --token protects the API with the given token', async () => {
    const dir = tempDir();
    const server = await spawnCli(
      ['serve', '--config', CONFIG, '--port', '0', '--data-dir', dir.path, '--token', 'flag-token'],
      { THINKFLOW_API_TOKENS: '' },
    );
    try {
      expect((await fetch(`${server.url}/v1/runs`)).status).toBe(401);
      const ok = await fetch(`${server.url}/v1/runs`, { headers: { authorization: 'Bearer flag-token' } });
      expect(ok.status).toBe(200);
    } finally {
      await server.kill();
      dir.cleanup();
    }
  });

  it('mcp-serve --http takes THINKFLOW_API_TOKENS and --token as serve does', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CLI_ENTRY, 'mcp-serve', '--tools', 'calculator', '--http', '0', '--token', 'flag-token'],
      { env: { ...process.env, THINKFLOW_API_TOKENS: 'env-token' }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = '';
        child.stderr?.on('data', (chunk: Buffer) => {
          err += chunk.toString();
          const match = /on (http:\/\/\S+)/.exec(err);
          if (match) resolve(match[1]);
        });
        child.once('exit', () => reject(new Error(err)));
      });
      const list = (token?: string) =>
        fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        });
      expect((await list()).status).toBe(401);
      expect((await list('nope')).status).toBe(401);
      expect((await list('env-token')).status).toBe(200);
      expect((await list('flag-token')).status).toBe(200);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
