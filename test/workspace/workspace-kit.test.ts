import { describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import { scriptedModel } from '../../src/llm/index.js';
import { virtualWorkspace, type Workspace } from '../../src/workspace/index.js';

// Run alone in its own module scope: no workspace factory has run in this file before the first test.
describe('the workspace tools come with the factory that made the workspace', () => {
  it('a Workspace no factory made (none has run yet) gets the tools on the first run, loaded then', async () => {
    const own = { kind: 'virtual', readFile: async () => 'mine' } as unknown as Workspace;
    const model = scriptedModel([
      { text: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a"}' }] },
      'ok',
    ]);
    const agent = new Agent({ model, workspace: own });
    expect(agent.tools.get('read_file')).toBeUndefined();
    const result = await agent.run('read a');
    expect(result.steps[0].observation).toContain('mine');
    expect(agent.tools.specs().map((t) => t.name)).toContain('read_file');
  });

  it('once virtualWorkspace() has run, an agent given its workspace gets the tools', async () => {
    const ws = await virtualWorkspace({ files: { 'a.txt': 'hello' } });
    const agent = new Agent({ model: scriptedModel(['ok']), workspace: ws });
    expect(agent.tools.specs().map((t) => t.name)).toContain('read_file');
    expect(await agent.tools.get('read_file')!.run({ path: 'a.txt' }, {} as never)).toContain('hello');
  });
});
