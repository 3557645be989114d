import net from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../../src/server/index.js';
import { tempDir } from '../../../server/server-fixtures.js';
import { type ServerProcess, spawnCli } from '../../../server/spawn-server.js';

/**
 * A real `thinkflow serve` whose agent calls http_get on addresses that fail at once. Each failure must
 * come back as the call's observation, and the same process must go on serving.
 */

const CONFIG = join(import.meta.dirname, 'fixtures', 'http-get.config.ts');
let server: ServerProcess;
let dir: { path: string; cleanup: () => void };

beforeAll(async () => {
  dir = tempDir();
  server = await spawnCli(['serve', '--port', '0', '--config', CONFIG, '--data-dir', dir.path], {
    THINKFLOW_API_TOKENS: '',
  });
}, 180_000);

afterAll(async () => {
  await server?.kill();
  dir?.cleanup();
});

/** A port on 127.0.0.1 that nothing listens on (bound, then closed), so a connect is refused. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function runAgent(input: string): Promise<RunRecord> {
  const response = await fetch(`${server.url}/v1/agents/fetcher/runs?wait=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ input }),
  });
  expect(response.status).toBeLessThan(300);
  return (await response.json()) as RunRecord;
}

describe('http_get inside a served agent', () => {
  it.each([
    [
      'a host whose address is unreachable at once (ENETUNREACH)',
      'http://unreachable.test/page',
      /ENETUNREACH|unreachable/i,
    ],
    ['the same over https (no setServername crash)', 'https://unreachable.test/page', /ENETUNREACH|unreachable/i],
    ['an IPv6 address unreachable at once', 'http://unreachable6.test/', /ENETUNREACH|unreachable/i],
    ['an unreachable IP literal', 'http://224.0.0.1/', /ENETUNREACH|unreachable/i],
    ['a port that refuses', 'http://refused.test:PORT/', /ECONNREFUSED|refused/i],
    ['a port that refuses, over https', 'https://refused.test:PORT/', /ECONNREFUSED|refused/i],
  ])(
    'turns %s into an observation and keeps serving',
    async (_label, template, reason) => {
      const url = template.replace('PORT', String(await closedPort()));
      const run = await runAgent(url);
      expect(run.status).toBe('done');
      expect(run.result?.output).toMatch(/^Observed: /);
      expect(run.result?.output).toMatch(reason);
      expect(server.child.exitCode).toBeNull();
      const health = await fetch(`${server.url}/health`);
      expect(health.status).toBe(200);
      expect(server.stderr()).not.toMatch(/Unhandled|uncaught|setServername/i);
    },
    60_000,
  );
});
