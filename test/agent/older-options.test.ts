import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, type AgentEvent, defineTool, scriptedModel } from '../../src/index.js';
import type { Skill } from '../../src/skills/index.js';
import { DEFAULT_LIMITS, type Workspace } from '../../src/workspace/index.js';
import { call } from './helpers.js';

// The option shapes from before each feature had its own import keep working on Node: the agent loads the
// feature's module itself on the first run. No workspace factory or skills loader runs in this file, so the
// kits come from that load.

function manyTools(n: number) {
  return Array.from({ length: n }, (_, i) => {
    const name = i === 17 ? 'get_exchange_rate' : `tool_${i}`;
    const description = i === 17 ? 'Converts money between two currencies.' : `Handles task number ${i}.`;
    return defineTool({ name, description, input: z.object({ q: z.string() }), run: ({ q }) => `${name}:${q}` });
  });
}

/** A Workspace of one's own, over a map of files (only what the file tools need). */
function ownWorkspace(files: Record<string, string>): Workspace {
  const readFile = async (path: string) => {
    if (!(path in files)) throw new Error(`No such file: ${path}`);
    return files[path];
  };
  return { kind: 'virtual', limits: DEFAULT_LIMITS, readFile } as unknown as Workspace;
}

describe('the option shapes of before, on Node', () => {
  it("protocol: 'code' runs each reply as a run_code call, as codeAct() does", async () => {
    const price = defineTool({
      name: 'price',
      description: 'The price of an item in USD.',
      input: z.object({ item: z.string() }),
      run: () => 3,
    });
    const model = scriptedModel(['```js\nconst p = await tools.price({ item: "fig" });\nfinal_answer(p * 2)\n```']);
    const agent = new Agent({ model, protocol: 'code', tools: [price] });
    const result = await agent.run('Two figs?');
    expect(result.output).toBe('6');
    expect(result.steps[0].toolCalls[0]?.name).toBe('run_code');
    expect(agent.protocol.name).toBe('code');
    expect(agent.tools.list().map((t) => t.name)).toEqual(['price', 'run_code']);
    expect(JSON.stringify(model.calls[0].messages)).toContain('price');
  });

  it('a toolRouting options object routes, and so does the default above 20 tools', async () => {
    const model = scriptedModel([call('get_exchange_rate', { q: 'EUR USD' }), 'done']);
    const events: AgentEvent[] = [];
    await new Agent({ model, tools: manyTools(200), toolRouting: { topK: 3 } }).run('exchange rate EUR to USD?', {
      onEvent: (e) => events.push(e),
    });
    expect(events.some((e) => e.type === 'tools_select')).toBe(true);
    const sent = model.calls[0].tools!.map((t) => t.name);
    expect(sent).toContain('get_exchange_rate');
    expect(sent).toContain('search_tools');
    expect(sent.length).toBeLessThanOrEqual(4);

    const byDefault = scriptedModel(['done']);
    await new Agent({ model: byDefault, tools: manyTools(30) }).run('convert money between currencies');
    expect(byDefault.calls[0].tools!.length).toBeLessThanOrEqual(9);
    expect(byDefault.calls[0].tools!.map((t) => t.name)).toContain('get_exchange_rate');

    const off = scriptedModel(['done']);
    await new Agent({ model: off, tools: manyTools(30), toolRouting: false }).run('x');
    expect(off.calls[0].tools).toHaveLength(30);
  });

  it('a Workspace of your own gets the workspace tools and instructions on the first run', async () => {
    const model = scriptedModel([call('read_file', { path: 'a.txt' }), 'It says hello.']);
    const agent = new Agent({ model, workspace: ownWorkspace({ 'a.txt': 'hello there' }) });
    const result = await agent.run('What does a.txt say?');
    expect(result.steps[0].observation).toContain('hello there');
    expect(model.calls[0].tools!.map((t) => t.name)).toContain('read_file');
    expect(agent.tools.list().map((t) => t.name)).toContain('bash');
  });

  it('skills made by hand get the catalogue and the skill tools', async () => {
    const skill: Skill = {
      name: 'greet',
      description: 'How to greet a guest.',
      body: 'Say "Welcome!" and nothing else.',
      file: 'greet/SKILL.md',
      files: [],
      readFile: async () => '',
    };
    const model = scriptedModel([call('load_skill', { name: 'greet' }), 'Welcome!']);
    const events: AgentEvent[] = [];
    const result = await new Agent({ model, skills: [skill] }).run('A guest arrives.', {
      onEvent: (e) => events.push(e),
    });
    expect(JSON.stringify(model.calls[0].messages)).toContain('- greet: How to greet a guest.');
    expect(result.steps[0].observation).toContain('Say "Welcome!"');
    expect(events.some((e) => e.type === 'skill_activate')).toBe(true);
  });
});
