import { describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import { contentText } from '../../src/core/index.js';
import { scriptedModel } from '../../src/llm/index.js';
import { virtualWorkspace } from '../../src/workspace/index.js';

const call = (id: string, command: string) => ({
  text: '',
  toolCalls: [{ id, name: 'bash', arguments: JSON.stringify({ command }) }],
});

describe('new Agent({ workspace })', () => {
  it('adds the workspace tools and a prompt block, which agent.prompt() shows', async () => {
    const ws = await virtualWorkspace();
    const agent = new Agent({
      model: scriptedModel(['ok']),
      workspace: ws,
      language: 'zh',
      instructions: '你是助手。',
    });
    expect(agent.tools.specs().map((t) => t.name)).toEqual([
      'bash',
      'read_file',
      'write_file',
      'edit_file',
      'glob',
      'grep',
      'ls',
    ]);
    const system = contentText((await agent.prompt('你好'))[0].content);
    expect(system).toContain('你是助手。');
    expect(system).toContain('你在一个工作区中工作');
  });

  it('runs commands in the workspace under its policy', async () => {
    const ws = await virtualWorkspace();
    const model = scriptedModel([call('c1', 'echo 数据 > a.txt'), call('c2', 'rm a.txt'), '好了。']);
    const agent = new Agent({ model, workspace: ws, workspacePolicy: { commands: { deny: ['rm'] } } });
    const result = await agent.run('写文件');
    expect(result.output).toBe('好了。');
    expect(result.steps[1].toolCalls[0].output).toMatch(/Command refused: rm a.txt/);
    expect(await ws.readFile('a.txt')).toBe('数据\n');
    // The system prompt of the run carried the workspace block.
    expect(contentText(model.calls[0].messages[0].content)).toContain('You work in a workspace');
  });
});
