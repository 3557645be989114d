import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayTrace } from '../../src/cli/replay-command.js';
import { parseAge, runsExport, runsList, runsPrune, runsShow, runsStats } from '../../src/cli/runs-command.js';
import type { CommandIo } from '../../src/cli/trace-command.js';
import { createApp, type RunPage, type RunRecord, SqliteRunStore } from '../../src/server/index.js';
import { parseTrace, renderTimeline } from '../../src/trace/index.js';
import { postJson, stepsAgent, tempDir } from '../server/server-fixtures.js';
import { runCli } from './run-cli.js';

const dir = tempDir();
const flags = { dataDir: dir.path };
let live: RunRecord;

function collect(): CommandIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    color: false,
    out: () => out,
    err: () => err,
  };
}

beforeAll(async () => {
  const store = new SqliteRunStore({ path: join(dir.path, 'runs.db') });
  const app = createApp({ agents: { steps: stepsAgent({ toolSteps: 2 }) }, store });
  const response = await app.fetch(
    new Request('http://localhost/v1/agents/steps/runs?wait=true', postJson({ input: 'go' })),
  );
  live = (await response.json()) as RunRecord;
  const old = Date.now() - 10 * 86_400_000;
  for (const [id, status] of [
    ['old-done', 'done'],
    ['old-waiting', 'waiting'],
  ] as const)
    await store.createRun({ id, agent: 'steps', input: 'x', status, source: 'api', createdAt: old, updatedAt: old });
  await app.runs.close();
  await store.close();
});
afterAll(() => dir.cleanup());

describe('thinkflow runs', () => {
  it('reads ages in days, hours, minutes and seconds', () => {
    expect(parseAge('7d')).toBe(7 * 86_400_000);
    expect(parseAge('12h')).toBe(12 * 3_600_000);
    expect(parseAge('1.5')).toBe(1.5 * 86_400_000);
    expect(() => parseAge('soon')).toThrow(/7d, 12h/);
  });

  it('lists runs, as a table or as JSON, filtered', async () => {
    const table = collect();
    await runsList(flags, table);
    expect(table.out().split('\n')[1]).toMatch(new RegExp(`^${live.id}\\tsteps\\tdone\\t`));
    const json = collect();
    await runsList({ ...flags, status: 'waiting', json: true }, json);
    expect((JSON.parse(json.out()) as RunPage).runs.map((r) => r.id)).toEqual(['old-waiting']);
  });

  it('shows a run, and exports it as a trace that trace show reads', async () => {
    const shown = collect();
    expect(await runsShow(live.id, flags, shown)).toBe(0);
    expect(JSON.parse(shown.out())).toMatchObject({ id: live.id, status: 'done' });
    const exported = collect();
    expect(await runsExport(live.id, flags, exported)).toBe(0);
    const events = parseTrace(exported.out());
    expect(events[0].type).toBe('run_start');
    expect(events.at(-1)?.type).toBe('run_end');
    expect(events.filter((e) => e.type === 'model_request')).toHaveLength(3);
    expect(renderTimeline(events, { color: false })).toContain('done');
    // Replay reads the rebuilt requests: the same run again, with no divergence.
    const file = join(dir.path, 'run.jsonl');
    writeFileSync(file, exported.out());
    expect(await replayTrace(file, { recordedTools: true }, collect())).toBe(0);
    const missing = collect();
    expect(await runsExport('nope', flags, missing)).toBe(1);
    expect(missing.err()).toContain('no run with id nope');
  });

  it('prune --dry-run deletes nothing; prune deletes finished runs past the age, never waiting ones', async () => {
    const dry = collect();
    await runsPrune({ ...flags, olderThan: '7d', dryRun: true }, dry);
    expect(dry.out()).toBe('would delete 1 run\n');
    const before = collect();
    await runsStats({ ...flags, json: true }, before);
    expect(JSON.parse(before.out()).runs).toBe(3);
    const pruned = collect();
    await runsPrune({ ...flags, olderThan: '7d' }, pruned);
    expect(pruned.out()).toBe('deleted 1 run\n');
    const after = collect();
    await runsStats(flags, after);
    expect(after.out()).toContain('runs: 2\n');
    expect(after.out()).toContain('waiting: 1');
    expect(await runsShow('old-done', flags, collect())).toBe(1);
  });

  it('is a command of the thinkflow CLI', { timeout: 60_000 }, async () => {
    const result = await runCli(['runs', 'stats', '--json', '--data-dir', dir.path]);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject({ byStatus: { done: 1, waiting: 1 } });
  });
});
