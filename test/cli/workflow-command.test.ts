import { mkdtempSync, rmSync } from 'node:fs';
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
});
