/**
 * The seeds' data-analysis assistant, in Chinese, on both backends: a CSV of sales, statistics from
 * shell tools (head, wc, awk, sort), then `report.md` in Chinese. The scripted model writes its report
 * from what the tools returned, as a model would, so a wrong statistic shows in the report.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import { contentText, type ModelRequest } from '../../src/core/index.js';
import { scriptedModel } from '../../src/llm/index.js';
import { sandboxWorkspace, virtualWorkspace, type Workspace, workspaceTools } from '../../src/workspace/index.js';

const base = mkdtempSync(join(tmpdir(), 'thinkflow-analysis-'));
chmodSync(base, 0o755);
afterAll(() => rmSync(base, { recursive: true, force: true }));

const SALES = [
  '产品,月份,销售额',
  '笔记本,一月,1200',
  '手机,一月,3000',
  '耳机,一月,450',
  '笔记本,二月,1800',
  '手机,二月,2600',
  '耳机,二月,700',
  '平板,二月,1500',
].join('\n');

const TOTALS = 'tail -n +2 销售.csv | awk -F, \'{s[$1]+=$3} END {for (p in s) print p "," s[p]}\' | sort -t, -k2 -nr';

const call = (id: string, name: string, args: unknown) => ({
  text: '',
  toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
});

/** The model: look at the data, total by product, write the report from the totals it saw, answer. */
function analyst(request: ModelRequest, index: number) {
  const lastTool = [...request.messages].reverse().find((m) => m.role === 'tool');
  const seen = lastTool ? contentText(lastTool.content) : '';
  if (index === 0) return call('c1', 'bash', { command: 'head -3 销售.csv && wc -l < 销售.csv' });
  if (index === 1) return call('c2', 'bash', { command: TOTALS });
  if (index === 2) {
    const rows = seen.split('\n').filter((line) => /^[^,\s:]+,\d+$/.test(line));
    const [top] = rows;
    const table = rows.map((row) => `| ${row.replace(',', ' | ')} |`).join('\n');
    const report = `# 销售分析报告\n\n## 各产品总销售额\n\n| 产品 | 总销售额 |\n| --- | --- |\n${table}\n\n## 结论\n\n最畅销的产品是${top.split(',')[0]}，总销售额为 ${top.split(',')[1]} 元。\n`;
    return call('c3', 'write_file', { path: 'report.md', content: report });
  }
  if (index === 3) return call('c4', 'read_file', { path: 'report.md' });
  return '报告已写入 report.md：最畅销的产品是手机。';
}

const backends: [string, () => Promise<Workspace>][] = [
  ['virtual', () => virtualWorkspace({ files: { '销售.csv': SALES } })],
  [
    'sandbox',
    async () => {
      const ws = await sandboxWorkspace({ dir: join(base, 'sandbox') });
      await ws.writeFile('销售.csv', SALES);
      return ws;
    },
  ],
];

describe.each(backends)('the data-analysis assistant on the %s backend', (_, create) => {
  it('totals the sales with shell tools and writes report.md in Chinese', async () => {
    const ws = await create();
    const agent = new Agent({
      model: scriptedModel(analyst),
      tools: workspaceTools(ws, { language: 'zh' }),
      instructions: '你是数据分析助手。',
    });
    const result = await agent.run('请分析 销售.csv：每个产品的总销售额，哪个最畅销？把报告写到 report.md。');
    expect(result.status).toBe('done');
    expect(result.output).toBe('报告已写入 report.md：最畅销的产品是手机。');
    const report = await ws.readFile('report.md');
    expect(report).toContain('| 手机 | 5600 |');
    expect(report).toContain('| 笔记本 | 3000 |');
    expect(report).toContain('| 耳机 | 1150 |');
    expect(report).toContain('| 平板 | 1500 |');
    expect(report).toContain('最畅销的产品是手机，总销售额为 5600 元。');
    expect(await ws.glob('*.md')).toEqual(['report.md']);
    await ws.dispose();
  });
});
