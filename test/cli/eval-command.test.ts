import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { type EvalIo, evalSuite } from '../../src/cli/eval-command.js';

const ROOT = join(import.meta.dirname, '..', '..');
const EXAMPLE = join(ROOT, 'examples', 'eval', 'suite.yaml');
const dir = mkdtempSync(join(tmpdir(), 'thinkflow-eval-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io(): EvalIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (t) => out.push(t), stderr: (t) => err.push(t), color: false, stderrIsTTY: false };
}

/** A suite where one case of two fails: the scripted model answers 5 to 2+2. */
function halfFailingSuite(): string {
  writeFileSync(join(dir, 'right.json'), JSON.stringify(['4']));
  writeFileSync(join(dir, 'wrong.json'), JSON.stringify(['5']));
  const path = join(dir, 'half.yaml');
  writeFileSync(
    path,
    [
      'name: half',
      'cases:',
      '  - { id: right, input: "2+2?", model: "scripted:right.json", checks: [{ numeric: 4 }] }',
      '  - { id: wrong, input: "2+2?", model: "scripted:wrong.json", checks: [{ numeric: 4 }] }',
    ].join('\n'),
  );
  return path;
}

describe('thinkflow eval', () => {
  it('runs the example suite with real agents: every case passes, table, JSON and HTML reports', async () => {
    const out = io();
    const json = join(dir, 'eval.json');
    const html = join(dir, 'eval.html');
    const { code, report } = await evalSuite(
      EXAMPLE,
      { repeat: '2', concurrency: '3', minPass: '1', output: json, html },
      out,
    );
    const failures = report.cases.flatMap((c) =>
      c.runs.flatMap((r) => r.checks.filter((k) => !k.pass).map((k) => `${c.id}: ${k.check} ${k.message}`)),
    );
    expect(failures).toEqual([]);
    expect(code).toBe(0);
    expect(report).toMatchObject({ suite: 'examples', runs: 8, passed: 8, passRate: 1 });
    const table = out.out.join('');
    for (const id of ['multiply', 'square-root', 'capital', 'even-number']) expect(table).toContain(id);
    expect(table).toContain('pass rate 100% (8/8 runs) ≥ 100% required');
    // Not a terminal: no progress at all, so logs stay clean.
    expect(out.err).toEqual([]);
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({ passRate: 1, runs: 8 });
    expect(readFileSync(html, 'utf8')).toContain('Pass rate <strong>100%</strong>');
    expect(report.cases.find((c) => c.id === 'multiply')).toMatchObject({ meanSteps: 2, meanLlmCalls: 2 });
  }, 30_000);

  it('returns 1 when any run fails, or with --min-pass when the pass rate is under it', async () => {
    const suite = halfFailingSuite();
    expect((await evalSuite(suite, {}, io())).code).toBe(1);
    expect((await evalSuite(suite, { minPass: '0.9' }, io())).code).toBe(1);
    expect((await evalSuite(suite, { minPass: '50%' }, io())).code).toBe(0);
    const right = `scripted:${join(dir, 'right.json')}`;
    expect((await evalSuite(suite, { model: right }, io())).code).toBe(0);
  });

  it('on a terminal, redraws one progress bar with pass and fail counts on stderr, then erases it', async () => {
    const out = { ...io(), stderrIsTTY: true };
    await evalSuite(halfFailingSuite(), { concurrency: '1' }, out);
    const err = out.err.join('');
    expect(err).toMatch(/^\r\x1b\[Keval half \[#{12}-{12}\] 1\/2 · 1 passed · 0 failed · last right ✓/);
    expect(err).toContain('\r\x1b[Keval half [########################] 2/2 · 1 passed · 1 failed · last wrong ✗');
    expect(err.endsWith('\r\x1b[K')).toBe(true);
    expect(out.out.join('')).not.toContain('\r');
  });

  it('--json prints the report on stdout instead of the table', async () => {
    const out = io();
    const { report } = await evalSuite(halfFailingSuite(), { json: true }, out);
    expect(JSON.parse(out.out.join(''))).toEqual(JSON.parse(JSON.stringify(report)));
  });

  it('--model overrides every case', async () => {
    const { report } = await evalSuite(halfFailingSuite(), { model: `scripted:${join(dir, 'right.json')}` }, io());
    expect(report.passRate).toBe(1);
  });

  it('explains a missing model and bad flags', async () => {
    const path = join(dir, 'nomodel.yaml');
    writeFileSync(path, 'cases:\n  - { id: a, input: x, checks: [{ contains: x }] }\n');
    const saved = process.env.THINKFLOW_MODEL;
    delete process.env.THINKFLOW_MODEL;
    try {
      await expect(evalSuite(path, {}, io())).rejects.toThrow(/No model for case a\.\nNo model is configured/);
    } finally {
      if (saved !== undefined) process.env.THINKFLOW_MODEL = saved;
    }
    await expect(evalSuite(EXAMPLE, { repeat: '0' }, io())).rejects.toThrow(/--repeat must be a whole number/);
    await expect(evalSuite(EXAMPLE, { minPass: 'lots' }, io())).rejects.toThrow(/--min-pass must be a rate/);
  });

  it('runs as a process and exits non-zero under --min-pass', async () => {
    const main = join(ROOT, 'src', 'cli', 'main.ts');
    const result = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', main, 'eval', halfFailingSuite(), '--min-pass', '0.9'],
      {
        cwd: ROOT,
        env: { ...process.env, THINKFLOW_HOME: mkdtempSync(join(tmpdir(), 'eval-home-')) },
      },
    ).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string }) => error,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('pass rate 50% (1/2 runs) < 90% required');
  }, 120_000);

  it('runs as a process: --json report on stdout, usage errors as JSON on stderr with exit 2', async () => {
    const main = join(ROOT, 'src', 'cli', 'main.ts');
    const exec = (args: string[]) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', main, ...args], {
        cwd: ROOT,
        env: { ...process.env, THINKFLOW_HOME: mkdtempSync(join(tmpdir(), 'eval-home-')) },
      }).then(
        (ok) => ({ code: 0, ...ok }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
    const failing = await exec(['eval', halfFailingSuite(), '--json']);
    expect(failing.code).toBe(1);
    expect(JSON.parse(failing.stdout)).toMatchObject({ runs: 2, passed: 1 });
    const bad = await exec(['eval', halfFailingSuite(), '--json', '--repeat', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(JSON.parse(bad.stderr).error.message).toMatch(/--repeat must be a whole number/);
  }, 120_000);
});
