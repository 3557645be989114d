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

describe('workspaceAgent skills and context', () => {
  const skillMd = (name: string, description: string) =>
    `---\nname: ${name}\ndescription: ${description}\n---\n按地区汇总销售额，然后写报告。\n`;

  it("reads skills from the workspace's .skills/ folder, warns about a broken one and keeps the others", async () => {
    const ws = await virtualWorkspace({
      files: {
        '.skills/sales-report/SKILL.md': skillMd('sales-report', '写中文销售报告：按地区汇总，列出销量最高的产品。'),
        '.skills/sales-report/references/格式.md': '# 报告格式\n标题、表格、结论。\n',
        // Over the specification's 1,024 characters: loaded with a warning, as the reference clients do.
        '.skills/long-one/SKILL.md': skillMd('long-one', 'x'.repeat(1100)),
        // No frontmatter: skipped with a warning, never an error.
        '.skills/broken/SKILL.md': '# just a title\n',
        'data.csv': '地区,金额\n华东,10\n',
      },
    });
    const model = scriptedModel([
      call('s1', 'load_skill', { name: 'sales-report' }),
      call('s2', 'read_skill_file', { name: 'sales-report', path: 'references/格式.md' }),
      call('s3', 'read_skill_file', { name: 'sales-report', path: '../long-one/SKILL.md' }),
      '好的。',
    ]);
    const agent = workspaceAgent({ model, workspace: ws, language: 'zh' });
    const warnings: string[] = [];
    const result = await agent.run('写报告', {
      onEvent: (e) => {
        if (e.type === 'warning') warnings.push(e.message);
      },
    });
    expect(result.status).toBe('done');
    const system = contentText(model.calls[0].messages[0].content);
    expect(system).toContain('sales-report');
    expect(system).toContain('long-one');
    expect(system).not.toContain('broken');
    expect(warnings.some((w) => w.includes('.skills/broken/SKILL.md'))).toBe(true);
    expect(warnings.some((w) => w.includes('.skills/long-one/SKILL.md') && w.includes('1024'))).toBe(true);
    expect(result.steps[0].toolCalls[0].output).toContain('按地区汇总销售额');
    expect(result.steps[1].toolCalls[0].output).toContain('标题、表格、结论');
    // A skill's files stay inside its folder.
    expect(String(result.steps[2].toolCalls[0].error ?? result.steps[2].toolCalls[0].output)).toContain(
      'outside the skill',
    );
  });

  it('has no skills and no error when the workspace has no .skills/ folder, and compaction on by default', async () => {
    const ws = await virtualWorkspace({ files: { 'a.txt': 'a' } });
    const model = scriptedModel(['done']);
    const agent = workspaceAgent({ model, workspace: ws });
    const result = await agent.run('hi');
    expect(result.status).toBe('done');
    expect(model.calls[0].tools?.map((t) => t.name)).not.toContain('load_skill');
    // The scripted model states no context window: the harness still budgets the prompt (compaction on).
    expect(agent.options.context?.budgetTokens).toBeGreaterThan(50_000);
    const off = workspaceAgent({ model, workspace: ws, context: { compaction: false, budgetTokens: 1000 } });
    expect(off.options.context).toEqual({ compaction: false, budgetTokens: 1000 });
  });
});
