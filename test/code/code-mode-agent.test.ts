import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../src/agent/index.js';
import { codeMode } from '../../src/code/index.js';
import type { AgentEvent, EventOf } from '../../src/core/index.js';
import { scriptedModel } from '../../src/llm/index.js';
import { defineTool } from '../../src/tools/index.js';
import { priceTools } from './code-helpers.js';

const SUM = `const items = ["apple", "fig", "kiwi"];
const prices = await Promise.all(items.map((item) => tools.price({ item })));
console.log(prices.length, "prices");
return prices.reduce((sum, p) => sum + p.usd, 0);`;

function runCodeCall(code: string) {
  return { text: '', toolCalls: [{ id: 'rc1', name: 'run_code', arguments: JSON.stringify({ code }) }] };
}

describe('codeMode in an agent run', () => {
  it('describes the tools as TypeScript declarations from their input and output schemas', () => {
    const { price } = priceTools();
    const tool = codeMode([price]);
    expect(tool.name).toBe('run_code');
    expect(tool.description).toContain('declare const tools: {');
    expect(tool.description).toContain('/** Price of one item in USD. */');
    expect(tool.description).toContain('price(input: { item: string }): Promise<{ item: string; usd: number }>;');
  });

  it('runs every call through the executor: nested tool_start/tool_end with parentCallId, counted in stats', async () => {
    const { price, seen } = priceTools();
    const model = scriptedModel([runCodeCall(SUM), 'The total is 12.']);
    const agent = new Agent({ model, tools: [codeMode([price])] });
    const events: AgentEvent[] = [];
    const result = await agent.run('What do they cost?', { onEvent: (e) => events.push(e) });
    expect(result.status).toBe('done');
    expect(seen.sort()).toEqual(['apple', 'fig', 'kiwi']);
    const observation = result.steps[0].toolCalls[0].output;
    expect(observation).toBe('Log:\n3 prices\nReturned: 12');
    const nested = events.filter((e): e is EventOf<'tool_end'> => e.type === 'tool_end' && !!e.parentCallId);
    expect(nested.map((e) => [e.tool, e.parentCallId, e.ok])).toEqual([
      ['price', 'rc1', true],
      ['price', 'rc1', true],
      ['price', 'rc1', true],
    ]);
    const starts = events.filter((e): e is EventOf<'tool_start'> => e.type === 'tool_start');
    expect(starts.map((e) => e.callId)).toEqual(['rc1', 'rc1.1', 'rc1.2', 'rc1.3']);
    expect(result.stats.toolCalls).toBe(4);
  });

  it('a call needing approval asks the run approver; a denial rejects inside the program', async () => {
    const deployed: string[] = [];
    const deploy = defineTool({
      name: 'deploy',
      description: 'Deploys a service.',
      input: z.object({ service: z.string() }),
      needsApproval: true,
      run: ({ service }) => {
        deployed.push(service);
        return `deployed ${service}`;
      },
    });
    const code = `const out = [];
for (const service of ["api", "web"]) {
  try { out.push(await tools.deploy({ service })) } catch (e) { out.push("refused " + service) }
}
return out;`;
    const asked: string[] = [];
    const agent = new Agent({ model: scriptedModel([runCodeCall(code), 'done']), tools: [codeMode([deploy])] });
    const result = await agent.run('ship', {
      approve: (request) => {
        asked.push(`${request.tool}:${(request.input as { service: string }).service}`);
        return (request.input as { service: string }).service === 'api';
      },
    });
    expect(asked).toEqual(['deploy:api', 'deploy:web']);
    expect(deployed).toEqual(['api']);
    expect(result.steps[0].toolCalls[0].output).toBe('Returned: ["deployed api","refused web"]');
  });

  it('an output that fails the tool output schema is the call error', async () => {
    const liar = defineTool({
      name: 'liar',
      description: 'Says a number.',
      input: z.object({}),
      output: z.object({ n: z.number() }),
      run: () => ({ n: 'seven' }) as unknown as { n: number },
    });
    const agent = new Agent({
      model: scriptedModel([runCodeCall('try { await tools.liar({}) } catch (e) { return e.message }'), 'ok']),
      tools: [codeMode([liar])],
    });
    const result = await agent.run('go');
    expect(result.steps[0].toolCalls[0].output).toMatch(/returned an output that does not match its output schema: n:/);
  });
});
