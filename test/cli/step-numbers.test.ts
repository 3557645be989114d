import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'thinkflow-step-numbers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const numbers = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => Number(m[1]));

describe('one step numbering everywhere: the first step is step 0, as the data says', { timeout: 300_000 }, () => {
  it('run output, trace show, the HTML report and the trace events name the same steps', async () => {
    const trace = join(dir, 'run.jsonl');
    const run = await runCli(['run', '-m', 'demo', '--trace', trace, 'What is (15 + 7) * 3?']);
    expect(run.code).toBe(0);
    const events = readFileSync(trace, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; step?: number });
    const recorded = events.filter((e) => e.type === 'step_start').map((e) => e.step);
    expect(recorded).toEqual([0, 1]);
    expect(numbers(run.stderr, /^step (\d+) ·/gm)).toEqual(recorded);
    const shown = await runCli(['trace', 'show', trace]);
    expect(numbers(shown.stdout, /^step (\d+) {2}/gm)).toEqual(recorded);
    const html = join(dir, 'run.html');
    expect((await runCli(['trace', 'html', trace, '--output', html])).code).toBe(0);
    expect(numbers(readFileSync(html, 'utf8'), /<summary>Step (\d+)</g)).toEqual(recorded);
  });
});

describe('counts of one read in the singular', { timeout: 300_000 }, () => {
  it('run output and trace show say "1 step" and "1 LLM call"', async () => {
    const trace = join(dir, 'hello.jsonl');
    const run = await runCli(['run', '-m', 'demo', '--trace', trace, 'hello']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/· 1 LLM call ·/);
    const shown = await runCli(['trace', 'show', trace]);
    expect(shown.stdout).toMatch(/· 1 step · 1 LLM call ·/);
    expect(`${run.stderr}${shown.stdout}`).not.toMatch(/\b1 (LLM calls|steps)\b/);
  });
});
