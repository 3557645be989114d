import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import type { AgentEvent } from '../../src/core/index.js';
import { scriptedModel } from '../../src/llm/index.js';
import type { AnyTool } from '../../src/tools/index.js';
import { sandboxWorkspace, virtualWorkspace, type Workspace, workspaceTools } from '../../src/workspace/index.js';

const base = mkdtempSync(join(tmpdir(), 'thinkflow-wstools-'));
chmodSync(base, 0o755);
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

const call = (id: string, name: string, args: unknown) => ({
  text: '',
  toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
});
const ctx = {
  signal: new AbortController().signal,
  runId: 'r',
  callId: 'c',
  logger: console,
  approve: async () => true,
} as never;
const tool = (tools: AnyTool[], name: string) => tools.find((t) => t.name === name) as AnyTool;

const backends: [string, (files: Record<string, string>) => Promise<Workspace>][] = [
  ['virtual', (files) => virtualWorkspace({ files })],
  [
    'sandbox',
    async (files) => {
      const ws = await sandboxWorkspace({ dir: join(base, `ws${++n}`) });
      for (const [path, text] of Object.entries(files)) await ws.writeFile(path, text);
      return ws;
    },
  ],
];

describe.each(backends)('workspaceTools on the %s backend', (_, create) => {
  it('reads a page with line numbers, edits an exact unique string, refuses a missing or repeated one', async () => {
    const ws = await create({ '笔记.md': Array.from({ length: 450 }, (_, i) => `第${i + 1}行`).join('\n') });
    const tools = workspaceTools(ws, { language: 'zh' });
    const read = tool(tools, 'read_file');
    const page = (await read.run({ path: '笔记.md' }, ctx)) as string;
    expect(page.split('\n')[0]).toBe('  1\t第1行');
    expect(page).toMatch(/第 401-450 行未显示；用 read_file 并传入 offset 401 继续读取/);
    expect(await read.run({ path: '笔记.md', offset: 449, limit: 5 }, ctx)).toBe('449\t第449行\n450\t第450行');
    const edit = tool(tools, 'edit_file');
    await expect(edit.run({ path: '笔记.md', old_string: '第9999行', new_string: 'x' }, ctx)).rejects.toThrow(
      /找不到 old_string/,
    );
    await expect(edit.run({ path: '笔记.md', old_string: '第1', new_string: 'x' }, ctx)).rejects.toThrow(
      /出现了 \d+ 次/,
    );
    expect(await edit.run({ path: '笔记.md', old_string: '第450行', new_string: '最后一行 $&' }, ctx)).toBe(
      '已编辑 笔记.md：替换 1 处。',
    );
    expect((await ws.readFile('笔记.md')).endsWith('最后一行 $&')).toBe(true);
    await ws.dispose();
  });

  it('greps, globs and lists with Chinese names', async () => {
    const ws = await create({ '数据/销售.csv': '月份,金额\n一月,100\n', '说明.txt': '销售数据说明' });
    const tools = workspaceTools(ws);
    expect(await tool(tools, 'grep').run({ pattern: '一月' }, ctx)).toBe('数据/销售.csv:2:一月,100');
    expect(await tool(tools, 'grep').run({ pattern: '不存在的词' }, ctx)).toBe('No matches.');
    expect(await tool(tools, 'glob').run({ pattern: '**/*.csv' }, ctx)).toBe('数据/销售.csv');
    expect(await tool(tools, 'ls').run({}, ctx)).toBe('数据/\n说明.txt\t18 B');
    await expect(tool(tools, 'ls').run({ path: '../' }, ctx)).rejects.toThrow(/outside the workspace/);
    await ws.dispose();
  });

  it('denies a smuggled command as an observation and asks for an ask-rule command', async () => {
    const ws = await create({ '重要.txt': '别删' });
    const policy = { commands: { deny: ['rm'], ask: ['curl'] } };
    const model = scriptedModel([
      call('c1', 'bash', { command: 'echo 开始 && bash -c "rm -rf 重要.txt"' }),
      call('c2', 'bash', { command: 'curl http://example.com' }),
      call('c3', 'bash', { command: 'cat 重要.txt' }),
      '文件还在。',
    ]);
    const events: AgentEvent[] = [];
    const agent = new Agent({ model, tools: workspaceTools(ws, { policy }) });
    const result = await agent.run('清理', { onEvent: (e) => events.push(e), approve: () => false });
    expect(result.output).toBe('文件还在。');
    const ends = events.filter((e) => e.type === 'tool_end');
    expect(ends[0]).toMatchObject({
      callId: 'c1',
      ok: false,
      output: expect.stringMatching(/Command refused: rm -rf 重要.txt: `rm` is denied/),
    });
    expect(events.some((e) => e.type === 'approval_request' && e.callId === 'c2')).toBe(true);
    expect(ends[2]).toMatchObject({ callId: 'c3', output: expect.stringContaining('别删') });
    expect(await ws.readFile('重要.txt')).toBe('别删');
    await ws.dispose();
  });
});
