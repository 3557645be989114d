import { chmodSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../src/server/index.js';
import { parseSse, postJson, tempDir } from '../server-fixtures.js';
import { eventually, type ServerProcess, servedConfig } from '../spawn-server.js';

const CONFIG = join(import.meta.dirname, '..', 'fixtures', 'workspace-durable.config.ts');
const { start, cleanups } = servedConfig(CONFIG);

async function statusOf(server: ServerProcess, id: string): Promise<RunRecord> {
  return (await (await fetch(`${server.url}/v1/runs/${id}`)).json()) as RunRecord;
}

async function commands(server: ServerProcess, id: string, after: number): Promise<{ callId: string }[]> {
  // `after` reads what is logged so far without waiting for the run's end.
  const response = await fetch(`${server.url}/v1/runs/${id}/events?after=${after}`, {
    signal: AbortSignal.timeout(2000),
  }).catch(() => undefined);
  const text = await response?.text().catch(() => '');
  return parseSse(text ?? '')
    .filter((e) => e.event === 'command_end')
    .map((e) => JSON.parse(e.data));
}

const sandboxed = process.platform === 'linux' && existsSync('/usr/bin/bwrap');

describe('a workspace command under `ask` across a serve restart', () => {
  it.each([
    ['memory', true],
    ['sandbox', sandboxed],
  ] as const)(
    '%s: waits through a kill -9, then runs once after the approval over HTTP',
    async (kind, can) => {
      if (!can) return;
      const dir = tempDir();
      cleanups.push(dir.cleanup);
      chmodSync(dir.path, 0o755);
      const env = { WS_KIND: kind, WS_DIR: join(dir.path, 'workspaces'), THINKFLOW_API_TOKENS: '' };
      const first = await start(dir.path, env);
      const created = await fetch(`${first.url}/v1/agents/asker/runs`, postJson({ input: '删掉 a.txt' }));
      const { id } = (await created.json()) as RunRecord;
      const waiting = await eventually(async () => {
        const run = await statusOf(first, id);
        return run.status === 'waiting' ? run : undefined;
      }, 60_000);
      expect(waiting.questions?.[0]).toMatchObject({
        kind: 'approval',
        tool: 'bash',
        input: { command: 'rm a.txt && ls' },
      });
      await first.kill('SIGKILL');

      const second = await start(dir.path, env);
      // The resumed run asks again, and nothing ran meanwhile.
      // The old process's question stays in the store until the resumed run asks again: until then the
      // approval answers 409 (no question here), and nothing ran meanwhile.
      const approved = await eventually(async () => {
        const answer = await fetch(`${second.url}/v1/runs/${id}/approvals`, postJson({ approved: true }));
        return answer.status === 409 ? undefined : answer;
      }, 60_000);
      expect(approved.status).toBeLessThan(300);
      const run = await eventually(async () => {
        const body = await statusOf(second, id);
        return ['queued', 'running', 'waiting'].includes(body.status) ? undefined : body;
      }, 60_000);

      expect(run.status).toBe('done');
      // The command ran on the first command's files (a.txt was there to remove), once.
      expect(run.result?.output).toBe(`after: ${JSON.stringify('exit code: 0\nstdout:\nb.txt\n')}`);
      expect((await commands(second, id, 0)).map((c) => c.callId)).toEqual(['a1', 'a2']);
      if (kind === 'sandbox') expect(readdirSync(join(env.WS_DIR, id))).toEqual(['b.txt']);
    },
    300_000,
  );
});
