import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.js';
import { systemPromptFor } from '../../../src/agent/step/system-prompt-cache.js';
import type { ToolSpec } from '../../../src/core/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { reactProtocol } from '../../../src/protocols/index.js';
import { defineTool } from '../../../src/tools/index.js';

const lookup = (description: string, field = 'city') =>
  defineTool({ name: 'lookup', description, input: z.object({ [field]: z.string() }), run: () => 'ok' });

const systemOf = (agent: Agent) => agent.prompt('hi')[0].content;

describe('system prompts shared across agents', () => {
  it('gives agents with the same tool name but another description or schema their own prompt', () => {
    const model = scriptedModel(['done']);
    const a = systemOf(new Agent({ model, protocol: 'react', tools: [lookup('Finds a city.')] }));
    const b = systemOf(new Agent({ model, protocol: 'react', tools: [lookup('Finds a river.')] }));
    const c = systemOf(new Agent({ model, protocol: 'react', tools: [lookup('Finds a city.', 'town')] }));
    expect(a).toContain('Finds a city.');
    expect(b).toContain('Finds a river.');
    expect(c).toContain('town');
    expect(new Set([a, b, c]).size).toBe(3);
  });

  it('tells instructions, language and protocol apart', () => {
    const model = scriptedModel(['done']);
    const tools = [lookup('Finds a city.')];
    const prompts = [
      systemOf(new Agent({ model, tools, protocol: 'react', instructions: 'Be brief.' })),
      systemOf(new Agent({ model, tools, protocol: 'react', instructions: 'Be thorough.' })),
      systemOf(new Agent({ model, tools, protocol: 'react', language: 'zh' })),
      systemOf(new Agent({ model, tools, protocol: 'json' })),
    ];
    expect(new Set(prompts).size).toBe(4);
    expect(prompts[0]).toContain('Be brief.');
  });

  it('answers a run with the prompt it renders for the same agent', async () => {
    const model = scriptedModel(['done', 'done']);
    const agent = new Agent({ model, protocol: 'react', tools: [lookup('Finds a city.')] });
    await agent.run('hi');
    expect(model.calls[0].messages[0].content).toBe(systemOf(agent));
  });

  it('keys a hand-made tool without a schema object by its text instead of failing', () => {
    const bare = { ...lookup('Finds a city.'), parameters: undefined } as unknown as ReturnType<typeof lookup>;
    const model = scriptedModel(['done']);
    expect(systemOf(new Agent({ model, protocol: 'react', tools: [bare] }))).toContain('Finds a city.');
  });

  it('keys a registry’s frozen tool list by identity, and reads a list that may still change every time', () => {
    const protocol = reactProtocol;
    const spec = (name: string) => Object.freeze({ name, description: `The ${name} tool.`, parameters: {} });
    const frozen = Object.freeze([spec('alpha'), spec('beta')]) as ToolSpec[];
    const prompt = { tools: frozen, language: 'en' as const };
    expect(systemPromptFor(protocol, prompt)).toBe(systemPromptFor(protocol, { ...prompt }));
    const open = [spec('alpha')];
    const before = systemPromptFor(protocol, { tools: open, language: 'en' });
    open.push(spec('gamma'));
    const after = systemPromptFor(protocol, { tools: open, language: 'en' });
    expect(before).not.toContain('gamma');
    expect(after).toContain('gamma');
  });
});
