import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent, type Checkpoint } from '../../src/agent/index.js';
import type { AgentEvent } from '../../src/core/index.js';
import { scriptedModel } from '../../src/llm/index.js';
import {
  finishedCalls,
  restorePoint,
  restoreWorkspace,
  rewindWorkspace,
  sandboxWorkspace,
  virtualWorkspace,
  type Workspace,
} from '../../src/workspace/index.js';

const tool = (id: string, name: string, args: Record<string, unknown>) => ({
  text: '',
  toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
});

/** Five steps: four that change (or read) files, then the answer. */
const script = () => [
  tool('c0', 'write_file', { path: '笔记/a.txt', content: '第一行\n第二行\n' }),
  tool('c1', 'bash', { command: 'echo 你好 > b.txt' }),
  tool('c2', 'edit_file', { path: '笔记/a.txt', old_string: '第二行', new_string: '第二行（改）' }),
  tool('c3', 'read_file', { path: 'b.txt' }),
  '完成。',
];

async function runOn(ws: Workspace) {
  const events: AgentEvent[] = [];
  const checkpoints: Checkpoint[] = [];
  const agent = new Agent({ model: scriptedModel(script()), workspace: ws });
  const result = await agent.run('写文件', {
    onEvent: (e) => void events.push(e),
    onCheckpoint: (c) => void checkpoints.push(structuredClone(c)),
  });
  return { result, events, checkpoints };
}

async function files(ws: Workspace): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of await ws.glob('**')) out[path] = await ws.readFile(path);
  return out;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('workspace changes in the run log', () => {
  it('emits a base, then a change with files, a diff and (virtual) the files per changing call', async () => {
    const { events, result } = await runOn(await virtualWorkspace());
    expect(result.output).toBe('完成。');
    const changes = events.filter((e) => e.type === 'workspace_change');
    expect(changes.map((c) => [c.callId, c.base === true])).toEqual([
      ['c0', true],
      ['c0', false],
      ['c1', false],
      ['c2', false],
    ]);
    const [base, first, second, third] = changes;
    expect(first.from).toBe(base.snapshot);
    expect(second.from).toBe(first.snapshot);
    expect(first.files).toEqual({ added: ['笔记/a.txt'], modified: [], removed: [] });
    expect(first.payload).toEqual({ write: { '笔记/a.txt': '第一行\n第二行\n' }, remove: [] });
    expect(third.files.modified).toEqual(['笔记/a.txt']);
    expect(third.diff).toContain('-第二行\n+第二行（改）');
    const commands = events.filter((e) => e.type === 'command_end');
    expect(commands).toMatchObject([{ callId: 'c1', command: 'echo 你好 > b.txt', exitCode: 0 }]);
  });

  it('a read-only call or a command that changes nothing takes no snapshot', async () => {
    const ws = await virtualWorkspace({ files: { 'a.txt': 'a' } });
    const events: AgentEvent[] = [];
    const model = scriptedModel([tool('c0', 'bash', { command: 'cat a.txt' }), tool('c1', 'ls', {}), 'ok']);
    await new Agent({ model, workspace: ws }).run('x', { onEvent: (e) => void events.push(e) });
    expect(events.filter((e) => e.type === 'workspace_change').map((e) => e.base)).toEqual([true]);
  });

  it('rebuilds a virtual workspace in a fresh process from the log, up to the last finished call', async () => {
    const { events, result } = await runOn(await virtualWorkspace());
    const all = finishedCalls(result.steps);
    const fresh = await virtualWorkspace();
    await restoreWorkspace(fresh, restorePoint({ runId: result.runId, events, calls: all }), events);
    expect(await files(fresh)).toEqual({ '笔记/a.txt': '第一行\n第二行（改）\n', 'b.txt': '你好\n' });

    // A crash before c2's end was checkpointed: its change is not restored.
    const crashed = await virtualWorkspace();
    const calls = new Set(['c0', 'c1']);
    await restoreWorkspace(crashed, restorePoint({ runId: result.runId, events, calls }), events);
    expect(await files(crashed)).toEqual({ '笔记/a.txt': '第一行\n第二行\n', 'b.txt': '你好\n' });
  });

  it('never counts the change of a call a crash cut off, though the resumed run ends that call', async () => {
    const { events, result } = await runOn(await virtualWorkspace());
    // The log as a crash during c2 and a resume leave it: c2's change is logged, its end is not; the
    // resumed run starts again and reports c2 as cut off (a tool_end of its own), then goes on.
    const c2End = events.findIndex((e) => e.type === 'tool_end' && e.callId === 'c2');
    const crashed = events.slice(0, c2End);
    const start = events.find((e) => e.type === 'run_start');
    const cut = { ...events[c2End], ok: false, output: 'interrupted' } as AgentEvent;
    const log = [...crashed, start as AgentEvent, cut];
    const point = restorePoint({ runId: result.runId, events: log, calls: finishedCalls(result.steps) });
    expect(point?.callId).toBe('c1');
  });

  it('rewinds to the files a step began with, in the same process and in a new one', async () => {
    const ws = await virtualWorkspace();
    const { events, result } = await runOn(ws);
    const request = { runId: result.runId, events, steps: result.steps };
    await rewindWorkspace(ws, { ...request, step: 2 });
    expect(await files(ws)).toEqual({ '笔记/a.txt': '第一行\n第二行\n', 'b.txt': '你好\n' });
    await rewindWorkspace(ws, { ...request, step: 0 });
    expect(await files(ws)).toEqual({});
    const fresh = await virtualWorkspace();
    await rewindWorkspace(fresh, { ...request, step: 1 });
    expect(await files(fresh)).toEqual({ '笔记/a.txt': '第一行\n第二行\n' });
    await expect(rewindWorkspace(ws, { ...request, step: 9 })).rejects.toThrow(/0 to 5/);
  });

  it.skipIf(process.platform !== 'linux')(
    'restores a sandbox from its snapshot store after the process is gone',
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'tf-wshist-'));
      dirs.push(root);
      chmodSync(root, 0o755);
      const dir = join(root, 'ws');
      const { events, result } = await runOn(await sandboxWorkspace({ dir }));
      const changes = events.filter((e) => e.type === 'workspace_change');
      expect(changes.every((c) => c.workspace === 'sandbox' && c.payload === undefined)).toBe(true);
      expect(changes[2].diff).toContain('+你好');
      // A new workspace on the same folder: as a new process would open it.
      const again = await sandboxWorkspace({ dir });
      await again.writeFile('junk.txt', 'left by a crashed call');
      await restoreWorkspace(
        again,
        restorePoint({ runId: result.runId, events, calls: new Set(['c0', 'c1']) }),
        events,
      );
      expect(await files(again)).toEqual({ '笔记/a.txt': '第一行\n第二行\n', 'b.txt': '你好\n' });
      await rewindWorkspace(again, { runId: result.runId, events, steps: result.steps, step: 5 });
      expect(await files(again)).toEqual({ '笔记/a.txt': '第一行\n第二行（改）\n', 'b.txt': '你好\n' });
    },
  );

  it('emits the todos plan as an event', async () => {
    const { workspaceAgent } = await import('../../src/agent/index.js');
    const events: AgentEvent[] = [];
    const todos = [{ content: '读数据', status: 'in_progress' }];
    const model = scriptedModel([tool('t1', 'todos', { todos }), 'ok']);
    await workspaceAgent({ model, workspace: await virtualWorkspace() }).run('x', {
      onEvent: (e) => void events.push(e),
    });
    expect(events.find((e) => e.type === 'todos_update')).toMatchObject({ callId: 't1', todos });
  });
});
