import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../server/server-fixtures.js';
import { spawnCli } from '../server/spawn-server.js';
import { runCli } from './run-cli.js';

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
});
