import { describe, expect, it } from 'vitest';
import { workspaceAgent } from '../../src/agent/index.js';
import { contentText } from '../../src/core/index.js';
import { scriptedModel } from '../../src/llm/index.js';
import { virtualWorkspace } from '../../src/workspace/index.js';

const call = (id: string, name: string, args: unknown) => ({
  text: '',
  toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
});

describe('workspaceAgent', () => {
  it('plans with todos and hands a sub-task to task, a fresh helper on the same workspace', async () => {
    const ws = await virtualWorkspace({ files: { '销售.csv': '产品,销售额\n手机,3000\n耳机,450\n' } });
    const model = scriptedModel([
      call('t1', 'todos', {
        todos: [
          { content: '统计总额', status: 'in_progress' },
          { content: '写报告', status: 'pending' },
        ],
      }),
      call('k1', 'task', { task: '统计 销售.csv 的总销售额，写入 总额.txt' }),
      // The helper's own run: a fresh context, the same files.
      call('h1', 'bash', { command: "awk -F, 'NR>1 {s+=$2} END {print s}' 销售.csv > 总额.txt" }),
      '总额已写入 总额.txt：3450。',
      '完成：总销售额 3450。',
    ]);
    const agent = workspaceAgent({ model, workspace: ws, language: 'zh' });
    expect(agent.tools.specs().map((t) => t.name)).toEqual([
      'todos',
      'task',
      'bash',
      'read_file',
      'write_file',
      'edit_file',
      'glob',
      'grep',
      'ls',
    ]);
    const result = await agent.run('统计总销售额');
    expect(result.output).toBe('完成：总销售额 3450。');
    expect(result.steps[0].toolCalls[0].output).toBe('1. [~] 统计总额\n2. [ ] 写报告');
    expect(result.steps[1].toolCalls[0].output).toBe('总额已写入 总额.txt：3450。');
    expect(await ws.readFile('总额.txt')).toBe('3450\n');
    // The helper started fresh: its first request held only its own task, not the lead's conversation.
    const helperFirst = model.calls[2].messages.map((m) => contentText(m.content)).join('\n');
    expect(helperFirst).toContain('统计 销售.csv 的总销售额');
    expect(helperFirst).not.toContain('统计总销售额\n');
    expect(contentText(model.calls[0].messages[0].content)).toContain('todos');
  });
});
