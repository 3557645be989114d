import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolRouter } from '../../../src/entries/tools.js';
import { Agent, type AgentEvent, type AnyTool, defineTool, jsonSchemaTool, scriptedModel } from '../../../src/index.js';
import { loadSealTools } from '../../fixtures/routing/public-sets.js';
import { call } from '../helpers.js';

// 4,076 tools from Seal-Tools (Apache-2.0; the fixture names its source), as an agent would register them.
const seal = loadSealTools();
let catalogue: AnyTool[];
beforeAll(() => {
  catalogue = seal.tools.map((spec) =>
    jsonSchemaTool({
      name: spec.name.replace(/[^\p{L}\p{N}_-]/gu, '_'),
      description: spec.description,
      parameters: spec.parameters,
      run: (input) => `${spec.name} ran with ${JSON.stringify(input)}`,
    }),
  );
});

const selected = (events: AgentEvent[]) => events.flatMap((e) => (e.type === 'tools_select' ? [e.tools] : []));

describe('tool routing over a 4,000-tool public catalogue', () => {
  it('sends the gold tool of a question and no more than topK', async () => {
    const question = seal.outDomain.find((q) => q.gold.length === 1)!;
    const model = scriptedModel(['Done.']);
    const events: AgentEvent[] = [];
    await new Agent({ model, tools: catalogue, toolRouting: createToolRouter() }).run(question.query, {
      onEvent: (e) => events.push(e),
    });
    const [tools] = selected(events);
    expect(tools).toContain(question.gold[0]);
    expect(tools.length).toBeLessThanOrEqual(8);
    expect(events.find((e) => e.type === 'tools_select')).toMatchObject({ from: 4076 });
  });

  it('registering and unregistering a tool updates the index between runs', async () => {
    const agent = new Agent({ model: scriptedModel(() => 'Done.'), tools: catalogue, toolRouting: createToolRouter() });
    const question = 'Book a hovercraft ride across the zorbleck lagoon';
    const events: AgentEvent[] = [];
    const onEvent = (e: AgentEvent) => events.push(e);
    await agent.run(question, { onEvent });
    expect(selected(events)[0]).not.toContain('bookHovercraftRide');

    agent.tools.register(
      defineTool({
        name: 'bookHovercraftRide',
        description: 'Book a hovercraft ride across a lagoon.',
        input: z.object({ lagoon: z.string() }),
        run: () => 'booked',
      }),
    );
    await agent.run(question, { onEvent });
    expect(selected(events)[1][0]).toBe('bookHovercraftRide');

    agent.tools.unregister('bookHovercraftRide');
    await agent.run(question, { onEvent });
    expect(selected(events)[2]).not.toContain('bookHovercraftRide');
  });

  it('search_tools finds a tool routing left out, and the model calls it at the next step', async () => {
    const model = scriptedModel([
      call('search_tools', { query: 'forensic analysis of chemical evidence' }),
      call('analyzeEvidence', { evidence_type: 'DNA', method: 'chromatography', sample: 'swab' }),
      'The evidence was analysed.',
    ]);
    const events: AgentEvent[] = [];
    const result = await new Agent({ model, tools: catalogue, toolRouting: createToolRouter() }).run(
      'Help me with my case file.',
      {
        onEvent: (e) => events.push(e),
      },
    );
    expect(result.status).toBe('done');
    // Routing left tools out, so search_tools is offered; the question named nothing forensic.
    const first = model.calls[0].tools?.map((t) => t.name) ?? [];
    expect(first).toContain('search_tools');
    expect(first).not.toContain('analyzeEvidence');
    const search = events.find((e) => e.type === 'tools_search');
    expect(search).toMatchObject({ step: 0, query: 'forensic analysis of chemical evidence' });
    expect(search?.type === 'tools_search' && search.tools).toContain('analyzeEvidence');
    const observation = result.steps[0].toolCalls[0].output;
    expect(observation).toMatch(/^- analyzeEvidence: Analyze the chemical evidence collected from a crime scene$/m);
    // Found tools are sent from the next model call on, and the call runs.
    expect(model.calls[1].tools?.map((t) => t.name)).toContain('analyzeEvidence');
    expect(model.calls[2].tools?.map((t) => t.name)).toContain('analyzeEvidence');
    expect(result.steps[1].toolCalls[0]).toMatchObject({ tool: 'analyzeEvidence', ok: true });
  });

  it('a resumed run whose pending step called search_tools runs it again, as offered then', async () => {
    const first = await new Agent({
      model: scriptedModel([call('search_tools', { query: 'forensic analysis of chemical evidence' }), 'x']),
      tools: catalogue,
      toolRouting: createToolRouter(),
    }).run('Help me with my case file.', { runId: 'search-resume' });
    const asked = first.steps[0];
    const model = scriptedModel(['The evidence was analysed.']);
    const resumed = await new Agent({ model, tools: catalogue, toolRouting: createToolRouter() }).run(
      'Help me with my case file.',
      {
        resume: {
          runId: 'search-resume',
          input: 'Help me with my case file.',
          steps: [],
          usage: first.usage,
          stats: first.stats,
          pending: { index: 0, raw: asked.raw, calls: [asked.toolCalls[0]], done: [] },
        },
      },
    );
    // search_tools is idempotent: the interrupted call runs again, and finds the tool, not "unknown tool".
    expect(resumed.steps[0].toolCalls[0]).toMatchObject({ name: 'search_tools', ok: true });
    expect(resumed.steps[0].toolCalls[0].output).toMatch(/analyzeEvidence/);
  });

  it('is not offered when every tool is sent (no routing), nor when searchTool is false', async () => {
    const few = catalogue.slice(0, 15);
    const model = scriptedModel(() => 'Done.');
    await new Agent({ model, tools: few }).run('analyze evidence');
    expect(model.calls[0].tools).toHaveLength(15);
    expect(model.calls[0].tools?.map((t) => t.name)).not.toContain('search_tools');
    await new Agent({ model, tools: catalogue, toolRouting: createToolRouter({ searchTool: false }) }).run(
      'analyze evidence',
    );
    expect(model.calls[1].tools?.map((t) => t.name)).not.toContain('search_tools');
  });

  it('fuses an embedding model with BM25 when toolRouting.embed is set', async () => {
    // A toy embedding: one dimension per letter, enough to rank "lagoon" by meaning-free overlap.
    const embed = {
      id: 'test:letters',
      embed: async (texts: string[]) =>
        texts.map((t) =>
          Array.from({ length: 26 }, (_, i) => t.toLowerCase().split(String.fromCharCode(97 + i)).length - 1),
        ),
    };
    const router = createToolRouter({ topK: 3, embed });
    const tools = seal.tools.slice(0, 50);
    const picked = await router.route('analyze the chemical evidence', tools);
    expect(picked.length).toBeLessThanOrEqual(3);
    expect(picked.map((t) => t.name)).toContain('analyzeEvidence');
  });
});
