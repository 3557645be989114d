import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setFeatureImport } from '../../src/agent/run/index.js';
import { Agent, type AgentEvent, ConfigError, defineTool, scriptedModel } from '../../src/index.js';
import type { Skill } from '../../src/skills/index.js';
import type { Workspace } from '../../src/workspace/index.js';

// A browser or edge bundle, played by an import that fails as a missing module does: the option shapes of
// before are ConfigErrors naming the explicit import, and the default routing is off with a warning.
beforeAll(() => setFeatureImport((specifier) => Promise.reject(new TypeError(`Failed to fetch ${specifier}`))));
afterAll(() => setFeatureImport());

const manyTools = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    defineTool({ name: `tool_${i}`, description: `Task ${i}.`, input: z.object({}), run: () => i }),
  );

describe('the option shapes of before, where their modules are not bundled', () => {
  it("protocol: 'code' is a ConfigError naming codeAct()", async () => {
    const agent = new Agent({ model: scriptedModel(['```js\nfinal_answer(1)\n```']), protocol: 'code' });
    const error = await agent.run('go').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(
      /protocol: 'code' is not in this bundle: pass protocol: codeAct\(\) from 'thinkflow\/code'/,
    );
  });

  it('a toolRouting options object is a ConfigError naming createToolRouter', async () => {
    const agent = new Agent({ model: scriptedModel(['ok']), tools: manyTools(30), toolRouting: { topK: 5 } });
    await expect(agent.run('x')).rejects.toThrow(
      /toolRouting: \{ \.\.\. \}.*createToolRouter\(\) from 'thinkflow\/tools'/,
    );
  });

  it('the default above 20 tools routes nothing and says how to turn routing on, once', async () => {
    const model = scriptedModel(['ok']);
    const events: AgentEvent[] = [];
    await new Agent({ model, tools: manyTools(30) }).run('x', { onEvent: (e) => events.push(e) });
    expect(model.calls[0].tools).toHaveLength(30);
    const warnings = events.filter((e) => e.type === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: 'tool_routing' });
    expect(warnings[0].type === 'warning' && warnings[0].message).toMatch(
      /30 tools, not routed.*toolRouting: createToolRouter\(\) from 'thinkflow\/tools'/,
    );
    const small = new Agent({ model: scriptedModel(['ok']), tools: manyTools(5) });
    const quiet: AgentEvent[] = [];
    await small.run('x', { onEvent: (e) => quiet.push(e) });
    expect(quiet.some((e) => e.type === 'warning')).toBe(false);
  });

  it('a Workspace of your own and skills made by hand are ConfigErrors naming workspaceTools and loadSkills', async () => {
    const own = { kind: 'virtual' } as unknown as Workspace;
    const workspaceAgent = new Agent({ model: scriptedModel(['ok']), workspace: own });
    await expect(workspaceAgent.run('x')).rejects.toThrow(
      /Workspace of your own.*workspaceTools\(ws\) from 'thinkflow\/workspace'/,
    );
    const skill = { name: 'greet', description: 'Greets.', body: 'Hi.', file: 'x', files: [] } as unknown as Skill;
    const skillAgent = new Agent({ model: scriptedModel(['ok']), skills: [skill] });
    await expect(skillAgent.run('x')).rejects.toThrow(/Skills made by hand.*loadSkills\(\) from 'thinkflow\/skills'/);
  });
});
