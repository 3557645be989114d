import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const CONFIG = join(import.meta.dirname, 'fixtures', 'workflow.config.ts');
const dataDir = mkdtempSync(join(tmpdir(), 'thinkflow-wf-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('thinkflow workflow', () => {
  it('runs a workflow of the config, leaves it suspended in the data dir, resumes it in another process, and forks it', async () => {
    const common = ['--config', CONFIG, '--data-dir', dataDir];
    const started = await runCli(['workflow', 'run', 'tally', '"hello"', ...common]);
    expect(started.code, started.stderr).toBe(0);
    const first = JSON.parse(started.stdout);
    expect(first).toMatchObject({ status: 'suspended', suspended: [{ stepId: 'review', payload: { n: 5 } }] });
    expect(started.stderr).toContain(`thinkflow workflow resume ${first.runId}`);

    const bad = await runCli([
      'workflow',
      'resume',
      'tally',
      first.runId,
      '--step',
      'review',
      '--payload',
      '{"factor":"x"}',
      ...common,
    ]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/does not fit its schema/);

    const resumed = await runCli([
      'workflow',
      'resume',
      'tally',
      first.runId,
      '--step',
      'review',
      '--payload',
      '{"factor":3}',
      ...common,
    ]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ status: 'done', output: 'total 15' });

    const forked = await runCli([
      'workflow',
      'fork',
      'tally',
      first.runId,
      '--from',
      'report',
      '--input',
      '7',
      ...common,
    ]);
    expect(JSON.parse(forked.stdout)).toMatchObject({ status: 'done', output: 'total 7' });

    const unknown = await runCli(['workflow', 'run', 'nope', ...common]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no workflow "nope"; it has tally/);
  }, 120_000);

  it('--trace writes every event of each pass as a JSON line, redacted, and thinkflow trace shows the workflow', async () => {
    const common = ['--config', CONFIG, '--data-dir', dataDir];
    const tally = join(dataDir, 'tally.jsonl');
    const started = await runCli(['workflow', 'run', 'tally', '"hello"', '--trace', tally, ...common]);
    expect(started.code, started.stderr).toBe(0);
    const { runId } = JSON.parse(started.stdout);
    const again = await runCli([
      'workflow',
      'resume',
      'tally',
      runId,
      '--step',
      'review',
      '--payload',
      '{"factor":3}',
      '--trace',
      tally,
      ...common,
    ]);
    expect(again.code, again.stderr).toBe(0);
    const lines = readFileSync(tally, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((e) => `${e.type} ${e.path ?? ''}`.trim())).toEqual([
      'workflow_start',
      'step_start 0.count',
      'step_end 0.count',
      'step_start 1.review',
      'step_suspended 1.review',
      'workflow_end',
      'workflow_start',
      'step_start 1.review',
      'step_end 1.review',
      'step_start 2.report',
      'step_end 2.report',
      'workflow_end',
    ]);
    const shown = await runCli(['trace', 'show', tally]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`workflow tally  run ${runId}`);
    expect(shown.stdout).toMatch(/\n1\.review {2}done \(resumed\).*pass 2\n {2}⏸ payload \{"n":5\}\n {2}← 15\n/);
    expect(shown.stdout).toMatch(/\ndone in .* · 3 steps · 2 passes .*\noutput total 15\n$/);

    const drafted = join(dataDir, 'drafted.jsonl');
    const ran = await runCli(['workflow', 'run', 'drafted', '"The site is down"', '--trace', drafted, ...common]);
    expect(ran.code, ran.stderr).toBe(0);
    const text = readFileSync(drafted, 'utf8');
    expect(text).not.toContain('sk-proj-Zx81kQ2mW7pLr4Tn9vB3cY6dF0hJ5sA1');
    expect(text).toContain('[redacted]');
    const html = join(dataDir, 'drafted.html');
    const written = await runCli(['trace', 'html', drafted, '-o', html]);
    expect(written.code, written.stderr).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<span id="status" class="status done">done</span>');
    expect(page).toMatch(/data-path="0\.count"/);
    expect(page).toMatch(/<details class="step" id="step-w\d+-\d+">/);
    expect(page).not.toContain('sk-proj-Zx81');
  }, 120_000);
});
