import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PromptOptions } from '../../src/agent/index.js';
import { codeAct, codeMode } from '../../src/entries/code.js';
import { memoryMemoryStore, memorySessionStore } from '../../src/entries/memory.js';
import { loadSkills } from '../../src/entries/skills.js';
import { createToolRouter } from '../../src/entries/tools.js';
import {
  Agent,
  type AgentOptions,
  defineTool,
  type RunOptions,
  type ScriptedModel,
  scriptedModel,
} from '../../src/index.js';
import { addTool } from './helpers.js';

const SKILLS = path.join(import.meta.dirname, '..', 'fixtures', 'skills', 'valid');

const tool = (name: string, description: string) =>
  defineTool({ name, description, input: z.object({ q: z.string() }), run: () => `${name} ok` });

/** Many tools, so the router picks each step's: only the weather ones fit a weather question. */
const manyTools = [
  tool('get_weather', 'Gets the weather forecast for a city.'),
  tool('convert_units', 'Converts temperatures between units.'),
  ...Array.from({ length: 23 }, (_, i) => tool(`ledger_${i}`, `Books invoice number ${i} into the ledger.`)),
];

/**
 * The first request the agent describes (`prompt`, `firstRequest`) against the first request its run
 * sends (`model.calls[0]`), deep-equal.
 */
async function expectFirstRequestSent(
  options: Omit<AgentOptions, 'model'>,
  run: PromptOptions = {},
  model: ScriptedModel = scriptedModel(['Final Answer: done', 'Final Answer: done']),
) {
  const agent = new Agent({ model, ...options });
  const messages = await agent.prompt('What is the weather in Paris?', run);
  const request = await agent.firstRequest('What is the weather in Paris?', run);
  await agent.run('What is the weather in Paris?', run as RunOptions);
  expect(model.calls.length).toBeGreaterThan(0);
  expect(messages).toEqual(model.calls[0].messages);
  expect(request).toEqual(model.calls[0]);
  return { messages, request };
}

const systemText = (messages: { content: unknown }[]) => String(messages[0].content);

describe('agent.prompt() and agent.firstRequest(): what the first request sends', () => {
  it('carries the skills catalogue, from skill folders and from loaded skills', async () => {
    const loaded = await loadSkills(SKILLS);
    for (const [protocol, skills] of [
      ['react', [SKILLS]],
      ['native', loaded],
    ] as const) {
      const { messages, request } = await expectFirstRequestSent({ protocol, skills: [...skills] });
      expect(systemText(messages)).toContain('weather-report');
      if (protocol === 'native') expect(request.tools?.map((t) => t.name)).toContain('load_skill');
    }
  });

  it('carries the routed tools and search_tools among more than 20 tools', async () => {
    for (const protocol of ['native', 'json'] as const) {
      const { request } = await expectFirstRequestSent({ protocol, tools: manyTools, toolRouting: createToolRouter() });
      const offered = (request.tools ?? request.promptTools ?? []).map((t) => t.name);
      expect(offered).toContain('get_weather');
      expect(offered).toContain('search_tools');
      expect(offered.length).toBeLessThan(manyTools.length);
    }
  });

  it('carries the recalled memories', async () => {
    const store = memoryMemoryStore();
    await store.add({ kind: 'fact', text: 'The user wants the weather in Celsius.' });
    const { messages } = await expectFirstRequestSent({ protocol: 'react', memory: { store } });
    expect(systemText(messages)).toContain('Celsius');
  });

  it('carries the code protocol and code mode declarations', async () => {
    const { messages } = await expectFirstRequestSent(
      { protocol: codeAct(), tools: [addTool] },
      {},
      scriptedModel(['```js\nfinal_answer("done")\n```', 'Final Answer: done']),
    );
    expect(systemText(messages)).toContain('add');
    const mode = await expectFirstRequestSent({ protocol: 'native', tools: [codeMode([addTool])] });
    expect(mode.request.tools?.map((t) => t.name)).toContain('run_code');
  });

  it("carries the agent's output schema, and a run's own in its place", async () => {
    const outputSchema = z.object({ city: z.string(), celsius: z.number() });
    const reply = '{"city":"Paris","celsius":21}';
    const agentSchema = await expectFirstRequestSent(
      { protocol: 'native', outputSchema },
      {},
      scriptedModel([reply, reply]),
    );
    expect(agentSchema.request.responseFormat).toBeDefined();
    expect(systemText(agentSchema.messages)).toContain('celsius');
    const runSchema = await expectFirstRequestSent(
      { protocol: 'react' },
      { outputSchema: z.object({ rainy: z.boolean() }) },
      scriptedModel(['Final Answer: {"rainy":false}', 'Final Answer: {"rainy":false}']),
    );
    expect(systemText(runSchema.messages)).toContain('rainy');
  });

  it('carries instructions and examples', async () => {
    const { messages } = await expectFirstRequestSent({
      protocol: 'react',
      tools: [addTool],
      instructions: 'Answer in one sentence.',
      examples: ['Question: 1 + 1?\nFinal Answer: 2'],
    });
    expect(systemText(messages)).toContain('Answer in one sentence.');
    expect(systemText(messages)).toContain('Final Answer: 2');
  });

  it('carries the earlier turns: given, and from a session', async () => {
    const history = [
      { role: 'user' as const, content: 'Hello' },
      { role: 'assistant' as const, content: 'Hi!' },
    ];
    const given = await expectFirstRequestSent({ protocol: 'react' }, { history });
    expect(given.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    const sessions = memorySessionStore();
    await sessions.append('s1', history);
    const saved = await expectFirstRequestSent({ protocol: 'react', sessions }, { sessionId: 's1' });
    expect(saved.messages.slice(1, 3)).toEqual(history);
  });

  it("carries a run's own tools, attachments (as notes for a text-only model) and beforeStep's changes", async () => {
    const image = { type: 'image' as const, data: 'aGk=', mediaType: 'image/png' };
    const textOnly = scriptedModel(['Final Answer: done', 'Final Answer: done'], { capabilities: { images: false } });
    const { messages } = await expectFirstRequestSent(
      { protocol: 'react' },
      { attachments: [image], tools: [tool('lookup_city', 'Finds a city.')] },
      textOnly,
    );
    expect(JSON.stringify(messages.at(-1))).toContain('cannot read images');
    expect(systemText(messages)).toContain('lookup_city');
    const { messages: changed } = await expectFirstRequestSent({
      protocol: 'react',
      beforeStep: (state) => ({ messages: [...state.messages, { role: 'user', content: 'Be brief.' }] }),
    });
    expect(changed.at(-1)).toEqual({ role: 'user', content: 'Be brief.' });
  });
});
