import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolRouter } from '../../src/entries/tools.js';
import { Agent, type AgentEvent, defineTool, scriptedModel } from '../../src/index.js';
import { call } from './helpers.js';

const TOPICS = [
  'invoice',
  'shipment',
  'refund',
  'password',
  'calendar',
  'weather',
  'stock',
  'translate',
  'email',
  'backup',
];

function manyTools(n: number) {
  return Array.from({ length: n }, (_, i) => {
    const topic = TOPICS[i % TOPICS.length];
    const name = i === 137 ? 'get_exchange_rate' : `${topic}_tool_${i}`;
    const description =
      i === 137
        ? 'Converts money: the exchange rate between two currencies, e.g. EUR to USD.'
        : `Handles ${topic} tasks, variant ${i}.`;
    return defineTool({ name, description, input: z.object({ q: z.string() }), run: ({ q }) => `${name}:${q}` });
  });
}

describe('Tool routing and reflection', () => {
  it('with 200 tools, each step sees only the relevant ones (never padded), plus search_tools for the rest', async () => {
    const model = scriptedModel([call('get_exchange_rate', { q: 'EUR USD' }), '1 EUR is 1.08 USD.']);
    const events: AgentEvent[] = [];
    const result = await new Agent({ model, tools: manyTools(200), toolRouting: createToolRouter({ topK: 5 }) }).run(
      'What is the exchange rate from EUR to USD currency?',
      {
        onEvent: (e) => events.push(e),
      },
    );
    expect(result.status).toBe('done');
    const select = events.find((e) => e.type === 'tools_select');
    expect(select).toMatchObject({ from: 200 });
    expect(select && select.type === 'tools_select' && select.tools[0]).toBe('get_exchange_rate');
    expect(model.calls[0].tools?.map((t) => t.name)).toEqual(['get_exchange_rate', 'search_tools']);
  });

  it('routes by default above 20 tools and with the options object of old; toolRouting: false sends every tool', async () => {
    const model = scriptedModel(['ok', 'ok', 'ok']);
    const events: AgentEvent[] = [];
    await new Agent({ model, tools: manyTools(30) }).run('x', { onEvent: (e) => events.push(e) });
    expect(events.some((e) => e.type === 'tools_select')).toBe(true);
    expect(model.calls[0].tools!.length).toBeLessThan(30);
    await new Agent({ model, tools: manyTools(30), toolRouting: { topK: 5 } }).run('invoice tasks');
    expect(model.calls[1].tools!.filter((t) => t.name !== 'search_tools').length).toBeLessThanOrEqual(5);
    await new Agent({ model, tools: manyTools(30), toolRouting: false }).run('x');
    expect(model.calls[2].tools).toHaveLength(30);
  });

  it('small tool sets are not routed', async () => {
    const model = scriptedModel(['ok']);
    const events: AgentEvent[] = [];
    await new Agent({ model, tools: manyTools(5) }).run('x', { onEvent: (e) => events.push(e) });
    expect(events.some((e) => e.type === 'tools_select')).toBe(false);
    expect(model.calls[0].tools).toHaveLength(5);
  });

  it('reflects every K steps with the cheap model and carries the reflection in later prompts', async () => {
    const tools = manyTools(3);
    const main = scriptedModel([call(tools[0].name, { q: 'a' }), call(tools[1].name, { q: 'b' }), 'done']);
    const cheap = scriptedModel(['Progress: two lookups done. Next: answer.']);
    const events: AgentEvent[] = [];
    await new Agent({ model: main, tools, reflectEvery: 2, models: { cheap } }).run('x', {
      onEvent: (e) => events.push(e),
    });
    expect(events.filter((e) => e.type === 'reflection')).toHaveLength(1);
    expect(JSON.stringify(main.calls[2].messages)).toContain('[Reflection] Progress: two lookups done');
  });
});
