import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, type RunRecord } from '../../../src/server/index.js';
import { sweepWorkspaces } from '../../../src/server/workspaces/index.js';
import { embeddedApp, postJson } from '../server-fixtures.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A folder with `thinkflow.config.yaml` holding `yaml` and a scripted model's replies. */
function project(yaml: string | ((dir: string) => string)): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tf-ws-config-'));
  chmodSync(dir, 0o755);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const replies = [
    {
      text: '',
      toolCalls: [{ id: 'c1', name: 'bash', arguments: JSON.stringify({ command: 'echo 销售 > 数据.csv' }) }],
    },
    '写好了。',
  ];
  writeFileSync(join(dir, 'replies.json'), JSON.stringify(replies));
  const file = join(dir, 'thinkflow.config.yaml');
  writeFileSync(file, typeof yaml === 'string' ? yaml : yaml(dir));
  return { dir, file };
}

const sandboxed = process.platform === 'linux' && existsSync('/usr/bin/bwrap');

describe('workspace: in a YAML config', () => {
  it('refuses a workspace of an unknown kind or with an unknown key, naming the field', async () => {
    const bad = project('agents:\n  coder:\n    model: demo\n    workspace: { kind: docker }\n');
    await expect(loadConfig(bad.file)).rejects.toThrow(
      /agents\.coder\.workspace\.kind: kind must be "memory" .* or "sandbox"/,
    );
    const typo = project('agents:\n  coder:\n    model: demo\n    workspace: { kind: sandbox, dirr: ./x }\n');
    await expect(loadConfig(typo.file)).rejects.toThrow(/agents\.coder\.workspace.*dirr/);
    const limits = project(
      'agents:\n  coder:\n    model: demo\n    workspace: { kind: memory, limits: { timeoutMs: -1 } }\n',
    );
    await expect(loadConfig(limits.file)).rejects.toThrow(/agents\.coder\.workspace\.limits\.timeoutMs/);
  });

  it('gives each run of a memory agent its own workspace, logged with its changes', async () => {
    const { dir, file } = project((at) => agent(at, '{ kind: memory }'));
    const config = await loadConfig(file);
    const server = embeddedApp({ agents: config.agents });
    cleanups.push(() => server.close());
    const run = (await (
      await server.request('/v1/agents/coder/runs', postJson({ input: '写文件', wait: true }))
    ).json()) as RunRecord;
    expect(run.result?.output).toBe('写好了。');
    const events = (await server.store.readEvents(run.id, 0)).map((e) => e.event);
    const change = events.find((e) => e.type === 'workspace_change' && !e.base);
    expect(change).toMatchObject({ workspace: 'virtual', files: { added: ['数据.csv'] } });
    expect(existsSync(join(dir, 'workspaces'))).toBe(false);
  });

  it.skipIf(!sandboxed)(
    "puts a sandbox agent's runs in workspaces/<agent>/<run id> beside the config; retention's sweep removes a deleted run's",
    async () => {
      const { dir, file } = project((at) => agent(at, '{ kind: sandbox }'));
      const config = await loadConfig(file);
      const server = embeddedApp({ agents: config.agents });
      cleanups.push(() => server.close());
      const run = (await (
        await server.request('/v1/agents/coder/runs', postJson({ input: '写文件', wait: true }))
      ).json()) as RunRecord;
      expect(run.status).toBe('done');
      const base = join(dir, 'workspaces', 'coder');
      expect(readdirSync(join(base, run.id))).toEqual(['数据.csv']);
      expect(readdirSync(base).sort()).toEqual([`.${run.id}.snapshots`, run.id].sort());

      // Not a run's folder: left alone. A run the store no longer holds: removed with its snapshots.
      mkdirSync(join(base, 'notes'));
      expect(await sweepWorkspaces(base, server.store)).toEqual([]);
      const pruned = await server.store.pruneRuns({ olderThan: Date.now() + 1000 });
      expect(pruned.runs).toBe(1);
      expect(await sweepWorkspaces(base, server.store)).toEqual([run.id]);
      expect(readdirSync(base)).toEqual(['notes']);
    },
  );

  it.skipIf(!sandboxed)(
    'with scope: thread, keeps one folder per thread until retention deleted its last run; rewinds only its latest turn',
    async () => {
      const { dir, file } = project((at) => agent(at, '{ kind: sandbox, scope: thread }'));
      // Each turn appends a line: the thread's file grows by one per turn.
      const replies = [
        {
          text: '',
          toolCalls: [{ id: 'c1', name: 'bash', arguments: JSON.stringify({ command: 'echo 销售 >> 数据.csv' }) }],
        },
        '写好了。',
      ];
      writeFileSync(join(dir, 'replies.json'), JSON.stringify(replies));
      const config = await loadConfig(file);
      const server = embeddedApp({ agents: config.agents });
      cleanups.push(() => server.close());
      const start = async () =>
        (await (
          await server.request('/v1/agents/coder/runs', postJson({ input: '写文件', threadId: 'm-1', wait: true }))
        ).json()) as RunRecord;
      const older = await start();
      const newer = await start();
      expect(newer.status).toBe('done');
      const base = join(dir, 'workspaces', 'coder');
      const folder = readdirSync(base).find((name) => /^thread-[0-9a-f]{32}$/.test(name)) ?? '';
      expect(readFileSync(join(base, folder, '数据.csv'), 'utf8')).toBe('销售\n销售\n');
      expect(readdirSync(base).sort()).toEqual([folder, `.${folder}.snapshots`, `.${folder}.thread`].sort());

      // An earlier turn cannot be rewound (the thread went on from it); the latest can, to the files before it.
      const refused = await server.request(`/v1/runs/${older.id}/rewind`, postJson({ step: 0 }));
      expect(refused.status).toBe(409);
      expect((await refused.json()).error.message).toMatch(/not the latest turn of thread "m-1"/);
      expect((await server.request(`/v1/runs/${newer.id}/rewind`, postJson({ step: 0 }))).status).toBe(200);
      expect(readFileSync(join(base, folder, '数据.csv'), 'utf8')).toBe('销售\n');

      // Retention deletes the older turn: the thread still has a run, its folder stays.
      expect((await server.store.pruneRuns({ keepNewest: 1 })).runs).toBe(1);
      expect(await sweepWorkspaces(base, server.store)).toEqual([]);
      expect(existsSync(join(base, folder))).toBe(true);
      // And then the last one: the folder, its snapshots and its label go.
      expect((await server.store.pruneRuns({ olderThan: Date.now() + 1000 })).runs).toBe(1);
      expect(await sweepWorkspaces(base, server.store)).toEqual([folder]);
      expect(readdirSync(base)).toEqual([]);
    },
  );

  it('with scope: thread, gives the turns of one AG-UI thread one memory workspace', async () => {
    const { dir, file } = project((at) => agent(at, '{ kind: memory, scope: thread }'));
    const command = 'echo 销售 >> 数据.csv && cat 数据.csv';
    const replies = [
      { text: '', toolCalls: [{ id: 'c1', name: 'bash', arguments: JSON.stringify({ command }) }] },
      '好。',
    ];
    writeFileSync(join(dir, 'replies.json'), JSON.stringify(replies));
    const config = await loadConfig(file);
    const server = embeddedApp({ agents: config.agents });
    cleanups.push(() => server.close());
    const agUiTurn = async (threadId: string, runId: string) => {
      const body = { threadId, runId, messages: [{ id: `m-${runId}`, role: 'user', content: '记一笔' }] };
      const response = await server.request('/v1/agents/coder/ag-ui', postJson(body));
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('RUN_FINISHED');
    };
    await agUiTurn('ag-1', 'r1');
    await agUiTurn('ag-1', 'r2');
    await agUiTurn('ag-2', 'r3');
    const outputs = async (thread: string) => {
      const page = await server.store.queryRuns({ thread });
      const runs = await server.store.getRuns(page.runs.map((r) => r.id).reverse());
      return runs.map((run) => run.result?.steps[0].toolCalls[0].output ?? '');
    };
    const [first, second] = await outputs('ag-1');
    expect(first).toMatch(/stdout:\n销售\n$/);
    expect(second).toMatch(/stdout:\n销售\n销售\n$/);
    expect((await outputs('ag-2'))[0]).toMatch(/stdout:\n销售\n$/);
  });
});

/** A config of one agent `coder` on the scripted replies in `dir`, with `workspace`. */
function agent(dir: string, workspace: string): string {
  return `agents:\n  coder:\n    model: scripted:${join(dir, 'replies.json')}\n    workspace: ${workspace}\n`;
}
