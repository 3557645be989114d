import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/server/index.js';
import { lines, postJson, tempDir } from '../server/server-fixtures.js';
import { eventually, type ServerProcess, spawnCli } from '../server/spawn-server.js';

const CONFIG = join(import.meta.dirname, 'fixtures', 'code-approval.config.ts');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function spawn(args: string[], env: Record<string, string>): Promise<ServerProcess> {
  const child = await spawnCli(args, env);
  cleanups.push(() => child.kill());
  return child;
}

function status(url: string, id: string, wanted: (run: RunRecord) => boolean): Promise<RunRecord> {
  return eventually(async () => {
    const run = (await (await fetch(`${url}/v1/runs/${id}`)).json()) as RunRecord;
    return wanted(run) ? run : undefined;
  }, 120_000);
}

describe('a code-mode program paused for approval across kill -9', () => {
  it('reruns from the start after the restart: finished calls come from the journal, each side effect happens once', async () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    const env = { COUNT_FILE: join(dir.path, 'calls.txt'), THINKFLOW_API_TOKENS: '' };
    const args = ['serve', '--port', '0', '--config', CONFIG, '--data-dir', dir.path];
    const first = await spawn(args, env);
    const created = await fetch(`${first.url}/v1/agents/ops/runs`, postJson({ input: 'ship it' }));
    const { id } = (await created.json()) as RunRecord;
    const paused = await status(first.url, id, (run) => run.status === 'waiting');
    expect(paused.questions).toEqual([expect.objectContaining({ kind: 'approval', tool: 'deploy' })]);
    expect(lines(env.COUNT_FILE)).toEqual(['charge a', 'charge b13']);
    await first.kill('SIGKILL');

    const second = await spawn(args, env);
    await status(second.url, id, (run) => run.status === 'waiting' && (run.questions?.length ?? 0) > 0);
    await fetch(`${second.url}/v1/runs/${id}/approvals`, postJson({ approved: true }));
    const run = await status(second.url, id, (r) => !['queued', 'running', 'waiting'].includes(r.status));
    expect(run.status).toBe('done');
    expect(run.result?.output).toBe('Told: Returned: ["a","b13","deployed api","c"]');
    expect(lines(env.COUNT_FILE)).toEqual(['charge a', 'charge b13', 'deploy api', 'charge c']);
  }, 300_000);
});
