import { expect, it } from 'vitest';
import type { Workspace } from '../../src/workspace/index.js';

/**
 * What every backend keeps: Chinese names and contents through every operation, confinement of every
 * path argument, output cut and marked, snapshots that restore and diff. `create` builds a fresh one.
 */
export function runWorkspaceContract(create: (files?: Record<string, string>) => Promise<Workspace>): void {
  it('reads, writes, lists, stats, globs and removes files with Chinese names and contents', async () => {
    const ws = await create({ '数据/销售.csv': '月份,金额\n一月,100\n' });
    try {
      expect(await ws.readFile('数据/销售.csv')).toBe('月份,金额\n一月,100\n');
      await ws.writeFile('报告/总结.md', '# 总结\n收入增长。\n');
      expect(await ws.readFile('报告/总结.md')).toBe('# 总结\n收入增长。\n');
      expect((await ws.list()).map((e) => [e.name, e.type])).toEqual([
        ['报告', 'directory'],
        ['数据', 'directory'],
      ]);
      expect(await ws.stat('数据/销售.csv')).toMatchObject({ path: '数据/销售.csv', type: 'file', size: 25 });
      expect(await ws.glob('**/*.{csv,md}')).toEqual(['报告/总结.md', '数据/销售.csv']);
      expect(await ws.glob('*.csv')).toEqual([]);
      await ws.remove('报告');
      await expect(ws.stat('报告/总结.md')).rejects.toThrow(/does not exist/);
    } finally {
      await ws.dispose();
    }
  });

  it('runs bash in the root with Chinese output, stdin, cwd, env and exit codes', async () => {
    const ws = await create({ '数据/销售.csv': '月份,金额\n一月,100\n二月,250\n' });
    try {
      const sum = await ws.exec('tail -n +2 数据/销售.csv | awk -F, \'{s+=$2} END {print "合计", s}\'');
      expect(sum).toMatchObject({ stdout: '合计 350\n', exitCode: 0 });
      expect((await ws.exec('cat', { stdin: '你好' })).stdout).toBe('你好');
      expect((await ws.exec('ls', { cwd: '数据' })).stdout).toBe('销售.csv\n');
      expect((await ws.exec('echo "$GREETING"', { env: { GREETING: '早上好' } })).stdout).toBe('早上好\n');
      expect((await ws.exec('exit 3')).exitCode).toBe(3);
      expect((await ws.exec('echo 写入 > 新.txt')).exitCode).toBe(0);
      expect(await ws.readFile('新.txt')).toBe('写入\n');
    } finally {
      await ws.dispose();
    }
  });

  it('refuses ../ and absolute paths in every path argument', async () => {
    const ws = await create({ 'a.txt': 'a' });
    try {
      for (const bad of ['../x', 'a/../../x', '/etc/passwd', '/root/.bashrc', '..']) {
        await expect(ws.readFile(bad), bad).rejects.toThrow(/outside the workspace/);
        await expect(ws.writeFile(bad, 'x'), bad).rejects.toThrow(/outside the workspace/);
        await expect(ws.list(bad), bad).rejects.toThrow(/outside the workspace/);
        await expect(ws.stat(bad), bad).rejects.toThrow(/outside the workspace/);
        await expect(ws.remove(bad), bad).rejects.toThrow(/outside the workspace/);
        await expect(ws.exec('pwd', { cwd: bad }), bad).rejects.toThrow(/outside the workspace/);
      }
      // Inside after normalizing is fine.
      expect(await ws.readFile('dir/../a.txt')).toBe('a');
    } finally {
      await ws.dispose();
    }
  });

  it('refuses a symlink made in the shell that points out of the root, for reads and writes', async () => {
    const ws = await create();
    try {
      await ws.exec('ln -s /etc out; ln -s /etc/hostname host; ln -s .. up');
      for (const bad of ['out/passwd', 'host', 'up/x']) {
        await expect(ws.readFile(bad), bad).rejects.toThrow(/outside the workspace|does not exist/);
        await expect(ws.writeFile(bad, 'owned'), bad).rejects.toThrow(/outside the workspace/);
      }
    } finally {
      await ws.dispose();
    }
  });

  it('cuts output over the limit and marks the cut', async () => {
    const ws = await create();
    try {
      const result = await ws.exec('for i in $(seq 1 600); do echo 这是第$i行; done');
      expect(Buffer.byteLength(result.stdout)).toBeLessThan(ws.limits.outputBytes + 300);
      expect(result.stdout).toMatch(/\[\.\.\. output cut: [\d,]+ more bytes over the limit of 4,096 bytes/);
      expect(result.stdout.startsWith('这是第1行\n')).toBe(true);
      expect(result.limit).toBe('output');
    } finally {
      await ws.dispose();
    }
  });

  it('kills a command over its time limit', async () => {
    const ws = await create();
    try {
      const started = Date.now();
      const result = await ws.exec('sleep 1000', { timeoutMs: 300 });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(result).toMatchObject({ exitCode: 124, limit: 'time' });
    } finally {
      await ws.dispose();
    }
  });

  it('snapshots, restores and diffs; a later write never changes a snapshot', async () => {
    const ws = await create({ '保留.txt': '原样', '改.txt': '旧' });
    try {
      const first = await ws.snapshot();
      await ws.exec('echo 追加 >> 改.txt; echo 新 > 新.txt; rm 保留.txt');
      await ws.writeFile('另.txt', '另');
      const second = await ws.snapshot();
      expect(await ws.diff(first, second)).toEqual({
        added: ['另.txt', '新.txt'],
        modified: ['改.txt'],
        removed: ['保留.txt'],
      });
      expect(await ws.diff(second)).toEqual({ added: [], modified: [], removed: [] });
      await ws.restore(first);
      expect(await ws.readFile('改.txt')).toBe('旧');
      expect(await ws.readFile('保留.txt')).toBe('原样');
      await expect(ws.stat('新.txt')).rejects.toThrow(/does not exist/);
      // Changing the files after a restore leaves the snapshot as it was.
      await ws.exec('echo 再改 >> 改.txt');
      await ws.restore(first);
      expect(await ws.readFile('改.txt')).toBe('旧');
      await ws.restore(second);
      expect(await ws.readFile('改.txt')).toBe('旧追加\n');
      await expect(ws.restore('nope')).rejects.toThrow(/No snapshot/);
    } finally {
      await ws.dispose();
    }
  });
}
