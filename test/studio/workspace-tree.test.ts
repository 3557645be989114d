import { describe, expect, it } from 'vitest';
import { Agent, workspaceAgent } from '../../src/agent/index.js';
import type { AgentEvent } from '../../src/core/index.js';
import { scriptedModel } from '../../src/llm/index.js';
import { type LooseEvent, treeOf } from '../../src/studio/client/run-tree.js';
import { virtualWorkspace } from '../../src/workspace/index.js';

const call = (id: string, name: string, args: Record<string, unknown>) => ({
  text: '',
  toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
});

describe('the studio run tree of a workspace run', () => {
  it('puts each call diff on the call, the changed files in the Files panel and the plan in its step', async () => {
    const events: AgentEvent[] = [];
    const model = scriptedModel([
      call('t1', 'todos', { todos: [{ content: '写报告', status: 'in_progress' }] }),
      call('w1', 'write_file', { path: '报告.md', content: '# 报告\n销售增长。\n' }),
      call('e1', 'edit_file', { path: '报告.md', old_string: '增长', new_string: '增长 20%' }),
      call('b1', 'bash', { command: 'echo x > tmp.txt && rm tmp.txt && echo 一 > 数据.csv' }),
      '完成。',
    ]);
    const agent = workspaceAgent({ model, workspace: await virtualWorkspace() });
    await agent.run('写报告', { onEvent: (e) => void events.push(e) });
    const root = treeOf(events as unknown as LooseEvent[]);

    expect(root?.steps[0].items).toContainEqual({ kind: 'plan', text: '[~] 写报告' });
    const edit = root?.steps[2].items.find((i) => i.kind === 'tool');
    expect(edit).toMatchObject({ tool: 'edit_file' });
    expect(edit?.kind === 'tool' && edit.diff).toContain('-销售增长。\n+销售增长 20%。');
    expect(root?.files).toEqual({
      '报告.md': { status: 'added', step: 2 },
      '数据.csv': { status: 'added', step: 3 },
    });
  });

  it('marks a rewind in its step and leaves a run without a workspace without a Files panel', async () => {
    const plain = treeOf([{ type: 'run_start', runId: 'r', input: 'hi', model: 'demo' }]);
    expect(plain?.files).toBeUndefined();
    const events: AgentEvent[] = [];
    const model = scriptedModel([call('w1', 'write_file', { path: 'a.txt', content: 'a' }), 'ok']);
    await new Agent({ model, workspace: await virtualWorkspace() }).run('x', { onEvent: (e) => void events.push(e) });
    const rewound = {
      type: 'workspace_change',
      runId: events[0].runId,
      ts: 0,
      workspace: 'virtual',
      snapshot: 's',
      files: { added: [], modified: [], removed: ['a.txt'] },
      diff: '',
      rewound: { step: 0 },
    };
    const root = treeOf([...events, rewound] as unknown as LooseEvent[]);
    expect(root?.files).toEqual({ 'a.txt': { status: 'removed', step: 1 } });
    expect(root?.steps.at(-1)?.items).toContainEqual({ kind: 'observation', text: 'workspace rewound to step 0' });
  });
});
