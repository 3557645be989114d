import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteWorkflowStore } from '../../src/entries/sqlite.js';
import { crashFlow, effects } from '../fixtures/workflows/parallel-crash.js';

const script = fileURLToPath(new URL('../fixtures/workflows/parallel-crash.ts', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('a workflow killed -9 mid-parallel', () => {
  it('resumes without re-running the finished branch and ends done', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'thinkflow-wf-crash-'));
    dirs.push(dir);
    const child = spawn(process.execPath, ['--import', 'tsx', script, 'run', dir], {
      env: { ...process.env, HANG: '1' },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const store = sqliteWorkflowStore({ file: join(dir, 'wf.db') });
    try {
      // The fast branch's output is committed and the slow one is running: kill the process there.
      await until(
        async () =>
          (await store.loadSteps('crash-run').catch(() => ({}) as Record<string, unknown>))['0.fast'] !== undefined,
        'the fast branch',
      );
      await until(() => effects(dir).includes('slow'), 'the slow branch to start');
      child.kill('SIGKILL');
      await exited;
      expect((await store.getRun('crash-run'))?.status).toBe('running');
      const result = await crashFlow(dir).resume('crash-run', {}, { store });
      expect(result).toMatchObject({ status: 'done', output: 45 });
      expect(effects(dir).filter((e) => e === 'fast')).toHaveLength(1);
      expect(effects(dir).filter((e) => e === 'slow')).toHaveLength(2);
    } finally {
      child.kill('SIGKILL');
      store.close?.();
    }
  }, 40_000);
});
