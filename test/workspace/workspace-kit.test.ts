import { describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import { scriptedModel } from '../../src/llm/index.js';
import { virtualWorkspace, type Workspace } from '../../src/workspace/index.js';

// Run alone in its own module scope: no workspace factory has run in this file before the first test.
describe('the workspace tools come with the factory that made the workspace', () => {
  it('a Workspace no factory made (none has run yet) is a ConfigError naming the factories and workspaceTools', async () => {
    const own = { kind: 'virtual' } as unknown as Workspace;
    expect(() => new Agent({ model: scriptedModel(['ok']), workspace: own })).toThrow(
      /virtualWorkspace\(\) or sandboxWorkspace\(\) from 'thinkflow\/workspace'.*workspaceTools\(workspace\)/,
    );
  });

  it('once virtualWorkspace() has run, an agent given its workspace gets the tools', async () => {
    const ws = await virtualWorkspace({ files: { 'a.txt': 'hello' } });
    const agent = new Agent({ model: scriptedModel(['ok']), workspace: ws });
    expect(agent.tools.specs().map((t) => t.name)).toContain('read_file');
    expect(await agent.tools.get('read_file')!.run({ path: 'a.txt' }, {} as never)).toContain('hello');
  });
});
