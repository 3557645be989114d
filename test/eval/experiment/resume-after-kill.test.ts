import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exact, runExperiment, SqliteExperimentStore } from '../../../src/eval/index.js';

const EVAL = pathToFileURL(join(import.meta.dirname, '../../../src/eval/index.ts')).href;
const CASES = 40;
const data = Array.from({ length: CASES }, (_, i) => ({ id: `case-${i}`, input: `q${i}`, expected: `a${i}` }));

/** The child: a real experiment writing to SQLite, each task logging its case and taking 25 ms. */
const child = (db: string, log: string) => `
import { appendFileSync } from 'node:fs';
import { exact, runExperiment, SqliteExperimentStore } from ${JSON.stringify(EVAL)};
const data = ${JSON.stringify(data)};
await runExperiment({
  name: 'resumable', id: 'resumable', data, scorers: [exact()], concurrency: 2,
  store: new SqliteExperimentStore({ file: ${JSON.stringify(db)} }),
  task: async (input, ctx) => { appendFileSync(${JSON.stringify(log)}, ctx.caseId + '\\n'); await new Promise((r) => setTimeout(r, 25)); return 'a' + String(input).slice(1); },
});
`;

describe('resume', () => {
  it('continues an experiment killed with SIGKILL without running its finished cases again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'resume-'));
    const db = join(dir, 'thinkflow.db');
    const log = join(dir, 'first.log');
    writeFileSync(join(dir, 'child.mts'), child(db, log));
    const proc = spawn(process.execPath, ['--import', 'tsx', join(dir, 'child.mts')], { stdio: 'ignore' });
    // Kill it hard once a dozen cases have started.
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        const started = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').length : 0;
        if (started >= 12) {
          clearInterval(timer);
          proc.kill('SIGKILL');
          resolve();
        }
      }, 5);
      proc.on('exit', (code) => {
        clearInterval(timer);
        if (code !== null) reject(new Error(`the child ended by itself (code ${code}) before it was killed`));
      });
    });
    await new Promise((r) => proc.once('exit', r));

    const store = new SqliteExperimentStore({ file: db });
    const finished = await store.finishedTrials('resumable');
    expect(finished.size).toBeGreaterThan(0);
    expect(finished.size).toBeLessThan(CASES);
    const again: string[] = [];
    const experiment = await runExperiment({
      name: 'resumable',
      resume: 'resumable',
      data,
      scorers: [exact()],
      store,
      task: (input, ctx) => {
        again.push(ctx.caseId);
        appendFileSync(join(dir, 'second.log'), `${ctx.caseId}\n`);
        return `a${String(input).slice(1)}`;
      },
    });
    const finishedIds = [...finished].map((key) => `case-${key.split(':')[0]}`);
    expect(again.filter((id) => finishedIds.includes(id))).toEqual([]);
    expect(again.length + finished.size).toBe(CASES);
    expect(experiment.summary).toMatchObject({ cases: CASES, trials: CASES, passed: CASES });
    await store.close();
  }, 60_000);

  it('refuses to resume with other data', async () => {
    const store = new SqliteExperimentStore({ file: ':memory:' });
    await runExperiment({ name: 'r', id: 'r', data: [{ input: 'a' }], task: () => 'a', scorers: [exact('a')], store });
    await expect(
      runExperiment({
        name: 'r',
        resume: 'r',
        data: [{ input: 'a' }, { input: 'b' }],
        task: () => 'a',
        scorers: [],
        store,
      }),
    ).rejects.toThrow(/same data/);
    await store.close();
  });
});
