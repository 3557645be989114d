import { chmodSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../src/server/index.js';
import { parseSse, postJson, tempDir } from '../server-fixtures.js';
import { eventually, servedConfig } from '../spawn-server.js';

const CONFIG = join(import.meta.dirname, '..', 'fixtures', 'workspace-durable.config.ts');
const { start, cleanups } = servedConfig(CONFIG);

/** A server on 127.0.0.1 that counts the requests a sandboxed command sends it. */
async function hitCounter(): Promise<{ port: number; hits: () => number }> {
  let hits = 0;
  const server: Server = createServer((_req, res) => {
    hits += 1;
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  return { port: typeof address === 'object' && address ? address.port : 0, hits: () => hits };
}

const sandboxed = process.platform === 'linux' && existsSync('/usr/bin/bwrap');

describe('a workspace run killed with -9 between two commands', () => {
  it.each([
    ['memory', true],
    ['sandbox', sandboxed],
  ] as const)(
    '%s: resumes with the files of its last finished call, and the first command ran once',
    async (kind, can) => {
      if (!can) return;
      const dir = tempDir();
      cleanups.push(dir.cleanup);
      chmodSync(dir.path, 0o755);
      const counter = await hitCounter();
      const env: Record<string, string> = {
        WS_KIND: kind,
        WS_DIR: join(dir.path, 'workspaces'),
        GATE_FILE: join(dir.path, 'gate'),
        THINKFLOW_API_TOKENS: '',
        ...(kind === 'sandbox' ? { HIT_PORT: String(counter.port) } : {}),
      };
      const first = await start(dir.path, env);
      const created = await fetch(`${first.url}/v1/agents/coder/runs`, postJson({ input: '写两个文件' }));
      const { id } = (await created.json()) as RunRecord;
      // Step 0's command ended and was checkpointed: the model waits before the second command.
      await eventually(() => (existsSync(`${env.GATE_FILE}.waiting`) ? true : undefined), 60_000);
      await first.kill('SIGKILL');
      if (kind === 'sandbox') {
        // What a crashed call would leave behind: the resumed run must not see it.
        writeFileSync(join(env.WS_DIR, id, 'junk.txt'), 'left by a crash');
      }

      writeFileSync(env.GATE_FILE, '');
      const second = await start(dir.path, env);
      const run = await eventually(async () => {
        const body = (await (await fetch(`${second.url}/v1/runs/${id}`)).json()) as RunRecord;
        return ['queued', 'running', 'waiting'].includes(body.status) ? undefined : body;
      }, 60_000);
      const events = parseSse(await (await fetch(`${second.url}/v1/runs/${id}/events`)).text());
      const commands = events.filter((e) => e.event === 'command_end').map((e) => JSON.parse(e.data));

      expect(run.status).toBe('done');
      // The second command, in the new process, read the first one's file: the files were intact.
      expect(run.result?.output).toContain('第一');
      expect(run.result?.output).toContain('a.txt');
      expect(run.result?.output).not.toContain('junk.txt');
      expect(commands.map((c) => c.callId)).toEqual(['c1', 'c2']);
      if (kind === 'sandbox') {
        expect(counter.hits()).toBe(1);
        expect(readdirSync(join(env.WS_DIR, id)).sort()).toEqual(['a.txt', 'b.txt']);
      }
      const changes = events.filter((e) => e.event === 'workspace_change').map((e) => JSON.parse(e.data));
      expect(changes.map((c) => [c.callId, c.base === true])).toEqual([
        ['c1', true],
        ['c1', false],
        ['c2', false],
      ]);
    },
    300_000,
  );
});
