import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'thinkflow-run-ws-'));
chmodSync(dir, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function script(name: string, replies: unknown[]): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(replies));
  return file;
}

const call = (id: string, name: string, args: unknown) => ({
  text: '',
  toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
});

describe('thinkflow run --workspace', { timeout: 120_000 }, () => {
  it('gives the agent a sandboxed folder its commands write into', async () => {
    const work = join(dir, 'work');
    const model = script('sandbox.json', [
      call('c1', 'bash', { command: 'echo 你好 > 问候.txt && cat 问候.txt' }),
      '写好了。',
    ]);
    const result = await runCli(['run', '--model', `scripted:${model}`, '--workspace', work, '--json', '写个问候']);
    expect(result.code).toBe(0);
    const run = JSON.parse(result.stdout);
    expect(run.output).toBe('写好了。');
    expect(readFileSync(join(work, '问候.txt'), 'utf8')).toBe('你好\n');
  });

  it('`memory` is an in-memory workspace', async () => {
    const model = script('memory.json', [call('c1', 'bash', { command: 'echo 内存 > a.txt; cat a.txt; pwd' }), '好。']);
    const result = await runCli(['run', '--model', `scripted:${model}`, '--workspace', 'memory', '--json', 'x']);
    expect(result.code).toBe(0);
    const run = JSON.parse(result.stdout);
    expect(JSON.stringify(run.steps)).toContain('内存\\n/workspace');
  });
});
