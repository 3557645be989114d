import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/core/index.js';
import { parseSuite } from '../../src/eval/eval-suite.js';
import { formatEvalTable } from '../../src/eval/format-eval-table.js';
import { renderEvalHtml } from '../../src/eval/render-eval-html.js';
import { type EvalProgress, formatProgress, runSuite } from '../../src/eval/run-suite.js';
import { makeResult } from './make-result.js';

const suite = parseSuite(`
name: demo
cases:
  - id: add
    input: "2+2"
    checks: [{ contains: "4" }, { calledTool: calculator }]
  - id: capital
    input: "Capital of France?"
    checks: [{ exact: Paris }]
  - id: broken
    input: "<script>x</script>"
    checks: [{ contains: anything }]
`);

const answers: Record<string, (repeat: number) => RunResult> = {
  add: () => makeResult({ output: 'It is 4', tools: ['calculator'] }),
  capital: (repeat) => makeResult({ output: repeat === 0 ? 'Paris' : 'Lyon' }),
  broken: () => {
    throw new Error('model spec missing');
  },
};

describe('runSuite', () => {
  it('runs each case repeat times and computes pass rates, means and totals', async () => {
    const report = await runSuite(suite, {
      runCase: async (c, { repeat }) => answers[c.id](repeat),
      repeat: 2,
      model: 'scripted',
    });
    expect(report.runs).toBe(6);
    expect(report.passed).toBe(3);
    expect(report.passRate).toBe(0.5);
    const [add, capital, broken] = report.cases;
    expect(add).toMatchObject({ id: 'add', passed: 2, passRate: 1, meanSteps: 2, meanLlmCalls: 2, meanTokens: 15 });
    expect(capital.runs.map((r) => r.pass)).toEqual([true, false]);
    expect(capital.runs[1].checks[0]).toMatchObject({ pass: false, message: 'output was "Lyon"' });
    expect(broken.runs[0]).toMatchObject({ pass: false, status: 'error', error: 'model spec missing' });
    expect(report.promptTokens).toBe(40);
  });

  it('totals the cost only when every run that used tokens has one, never a partial sum', async () => {
    const priced = (costUsd?: number): RunResult => {
      const result = makeResult({ output: 'It is 4', tools: ['calculator'] });
      return { ...result, usage: { ...result.usage, costUsd } };
    };
    // 'broken' throws before using any tokens: it costs nothing and does not make the total unknown.
    const run = (cost: (id: string) => number | undefined) =>
      runSuite(suite, {
        model: 'm',
        runCase: async (c) => (c.id === 'broken' ? answers.broken(0) : priced(cost(c.id))),
      });
    expect((await run(() => 0.01)).costUsd).toBeCloseTo(0.02);
    expect((await run((id) => (id === 'add' ? 0.01 : undefined))).costUsd).toBeUndefined();
    expect((await run(() => undefined)).costUsd).toBeUndefined();
  });

  it('runs at most `concurrency` cases at once and reports progress after each', async () => {
    let running = 0;
    let peak = 0;
    const progress: EvalProgress[] = [];
    await runSuite(suite, {
      repeat: 3,
      concurrency: 2,
      onProgress: (p) => progress.push(p),
      runCase: async (c) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        return makeResult({ output: c.id === 'capital' ? 'Paris' : 'It is 4', tools: ['calculator'] });
      },
    });
    expect(peak).toBe(2);
    expect(progress.map((p) => p.done)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(progress.at(-1)).toMatchObject({ total: 9, passed: 6 });
  });
});

describe('eval reports', () => {
  it('formats a table with one row per case and the pass rate against --min-pass', async () => {
    const report = await runSuite(suite, { runCase: async (c, { repeat }) => answers[c.id](repeat), repeat: 2 });
    const table = formatEvalTable(report, { minPass: 0.8 });
    const lines = table.split('\n');
    expect(lines[0]).toMatch(/^case +pass +rate +steps +LLM calls +tokens +latency +first failure$/);
    expect(table).toMatch(/add +2\/2 +100% +2 +2 +15 /);
    expect(table).toMatch(/capital +1\/2 +50% .*exact "Paris": output was "Lyon"/);
    expect(table).toContain('broken');
    expect(table).toContain('model spec missing');
    expect(table).toContain('pass rate 50% (3/6 runs) < 80% required');
    expect(table).not.toMatch(/\u001b\[/);
  });

  it('renders a self-contained, escaped HTML page', async () => {
    const report = await runSuite(suite, { runCase: async (c, { repeat }) => answers[c.id](repeat) });
    const html = renderEvalHtml(report);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('Pass rate <strong>66.7%</strong>');
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).not.toMatch(/(src|href)=/);
  });

  it('draws a progress line', () => {
    expect(formatProgress({ done: 5, total: 10, passed: 4, caseId: 'add', pass: true }, 10)).toBe(
      '[#####·····] 5/10 · 4 passed · last: add ✓',
    );
  });
});
