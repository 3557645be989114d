import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evalSuite } from '../../src/cli/eval-command.js';
import { namePart } from '../../src/core/index.js';
import { readTrace } from '../../src/trace/index.js';

const dir = mkdtempSync(join(tmpdir(), 'thinkflow-eval-traces-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const quiet = { stdout: () => {}, stderr: () => {}, color: false };

describe('thinkflow eval --traces', () => {
  it("names each run's runId in the report and writes its trace, one file per case and repeat", async () => {
    writeFileSync(join(dir, 'answer.json'), JSON.stringify(['4', '4']));
    const suite = join(dir, 'suite.json');
    writeFileSync(
      suite,
      JSON.stringify({
        cases: [{ id: 'two plus/two', input: '2+2?', model: 'scripted:answer.json', checks: [{ numeric: 4 }] }],
      }),
    );
    const traces = join(dir, 'traces');
    const output = join(dir, 'report.json');
    const { report } = await evalSuite(suite, { repeat: '2', traces, output }, quiet);
    const runs = report.cases[0].runs as { repeat: number; runId?: string }[];
    const name = namePart('two plus/two');
    expect(name).toMatch(/^two_plus_two~[0-9a-f]{8}$/);
    expect(readdirSync(traces).sort()).toEqual([`${name}-1.jsonl`, `${name}-2.jsonl`]);
    for (const run of runs) {
      const events = readTrace(join(traces, `${name}-${run.repeat + 1}.jsonl`));
      expect(events[0]).toMatchObject({ type: 'run_start', runId: run.runId, input: '2+2?' });
    }
    expect(new Set(runs.map((r) => r.runId)).size).toBe(2);
    const written = JSON.parse(readFileSync(output, 'utf8')) as typeof report;
    expect(written.cases[0].runs.map((r) => (r as { runId?: string }).runId)).toEqual(runs.map((r) => r.runId));
  });

  it('gives cases named in Chinese, or alike but for punctuation, a trace file each (once all were `_-1.jsonl`)', async () => {
    writeFileSync(join(dir, 'yes.json'), JSON.stringify(['是']));
    const ids = ['法国的首都', '日本的首都', '首都？', 'a b', 'a_b', 'a/b'];
    const suite = join(dir, 'zh.json');
    writeFileSync(
      suite,
      JSON.stringify({
        name: '首都测验',
        cases: ids.map((id) => ({ id, input: `${id}?`, model: 'scripted:yes.json', checks: [{ contains: '是' }] })),
      }),
    );
    const traces = join(dir, 'zh-traces');
    const { report } = await evalSuite(suite, { traces }, quiet);
    const files = readdirSync(traces).sort();
    expect(files).toHaveLength(ids.length);
    expect(files).toContain('法国的首都-1.jsonl');
    expect(files).toContain('日本的首都-1.jsonl');
    expect(files).toContain('a_b-1.jsonl');
    for (const id of ids) {
      const events = readTrace(join(traces, `${namePart(id)}-1.jsonl`));
      expect(events.filter((e) => e.type === 'run_start')).toEqual([expect.objectContaining({ input: `${id}?` })]);
    }
    expect(report.cases).toHaveLength(ids.length);
  });

  it('writes no trace without --traces, and the report still names the runs', async () => {
    writeFileSync(join(dir, 'one.json'), JSON.stringify(['4']));
    const suite = join(dir, 'plain.json');
    writeFileSync(
      suite,
      JSON.stringify({ cases: [{ id: 'c', input: '2+2?', model: 'scripted:one.json', checks: [{ numeric: 4 }] }] }),
    );
    const before = readdirSync(dir).length;
    const { report } = await evalSuite(suite, {}, quiet);
    expect(readdirSync(dir)).toHaveLength(before);
    expect((report.cases[0].runs[0] as { runId?: string }).runId).toMatch(/\S/);
  });
});
