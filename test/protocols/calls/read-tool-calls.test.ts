import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readToolCalls } from '../../../src/entries/protocols.js';
import { Agent, type AgentEvent, defineTool, jsonSchemaTool, scriptedModel } from '../../../src/index.js';
import { MARKED_FORMATS, UNMARKED_FORMATS } from '../../../src/protocols/index.js';

interface FormatEntry {
  id: string;
  source: string;
  text: string;
  calls: { name: string; input: Record<string, unknown> }[];
}

const dir = join(import.meta.dirname, '..', '..', 'fixtures', 'tool-calls');
const formats: FormatEntry[] = JSON.parse(readFileSync(join(dir, 'formats.json'), 'utf8'));
const noCalls: { id: string; source: string; text: string; protocols?: string[] }[] = JSON.parse(
  readFileSync(join(dir, 'no-calls.json'), 'utf8'),
);

const TOOLS = ['get_weather', 'get_time', 'plan_trip'];

function tools(ran: { name: string; input: unknown }[]) {
  return TOOLS.map((name) =>
    jsonSchemaTool({
      name,
      description: `the ${name} tool`,
      parameters: { type: 'object', additionalProperties: true },
      run: (input) => {
        ran.push({ name, input });
        return `${name} done`;
      },
    }),
  );
}

describe('readToolCalls on every format real models write', () => {
  it.each(formats.map((f) => [f.id, f] as const))('%s', (_id, entry) => {
    expect(entry.source.length).toBeGreaterThan(10);
    const read = readToolCalls(entry.text, { tools: TOOLS });
    expect(read.calls).toEqual(entry.calls);
    expect(read.habits.length).toBeGreaterThan(0);
  });

  it.each(noCalls.filter((f) => !f.protocols).map((f) => [f.id, f] as const))('no call in %s', (_id, entry) => {
    expect(readToolCalls(entry.text, { tools: TOOLS }).calls).toEqual([]);
  });

  it('every row of the table has an example it reads', () => {
    for (const format of [...MARKED_FORMATS, ...UNMARKED_FORMATS]) {
      const read = readToolCalls(format.example, { tools: ['get_weather', 'get_time'] });
      expect(read.calls.length, format.id).toBeGreaterThan(0);
      expect(read.formats, format.id).toContain(format.id);
    }
  });

  it('keeps argument lists whole and reads bare calls with dotted names', () => {
    expect(readToolCalls("[calculate_area_under_curve(function='x**2', interval=[1, 3])]").calls).toEqual([
      { name: 'calculate_area_under_curve', input: { function: 'x**2', interval: [1, 3] } },
    ]);
    expect(readToolCalls("travel_itinerary_generator(destination='Tokyo', days=7)").calls).toEqual([
      { name: 'travel_itinerary_generator', input: { destination: 'Tokyo', days: 7 } },
    ]);
    expect(readToolCalls('[math.factorial(number=5), fs/read_file(path="/a")]').calls.map((c) => c.name)).toEqual([
      'math.factorial',
      'fs/read_file',
    ]);
  });

  it('reads no call in a bare call among prose unless it names a tool', () => {
    const text = 'I will look it up.\nsearch_web(query="x")\nThen I answer.';
    expect(readToolCalls(text).calls).toEqual([]);
    expect(readToolCalls(text, { tools: ['search_web'] }).calls).toEqual([
      { name: 'search_web', input: { query: 'x' } },
    ]);
  });

  it('stays linear on 100 kB adversarial replies', () => {
    for (const unit of [
      '[f(',
      '<tool_call>{"name": "a", "arguments": {"x": "',
      '>>>a\n{',
      'f(a=[[[[',
      '{"name": "',
      '<function=',
    ]) {
      const text = unit.repeat(Math.ceil(100_000 / unit.length));
      expect(() => readToolCalls(text, { tools: ['a', 'f'] })).not.toThrow();
    }
  });
});

describe('several calls in one text reply run through an Agent in every protocol', () => {
  for (const protocol of ['json', 'react', 'native'] as const) {
    it.each(formats.map((f) => [f.id, f] as const))(`${protocol}: %s`, async (_id, entry) => {
      const ran: { name: string; input: unknown }[] = [];
      const agent = new Agent({
        model: scriptedModel([entry.text, 'Final Answer: done']),
        tools: tools(ran),
        protocol,
      });
      const result = await agent.run('go');
      expect(ran).toEqual(entry.calls);
      expect(result.steps[0].toolCalls.map((c) => c.name)).toEqual(entry.calls.map((c) => c.name));
    });
  }

  for (const protocol of ['json', 'react', 'native'] as const) {
    it(`${protocol}: a reply with no call runs nothing`, async () => {
      for (const entry of noCalls.filter((f) => !f.protocols || f.protocols.includes(protocol))) {
        const ran: { name: string; input: unknown }[] = [];
        const agent = new Agent({
          model: scriptedModel([entry.text, 'Final Answer: done']),
          tools: tools(ran),
          protocol,
        });
        await agent.run('go');
        expect(ran, entry.id).toEqual([]);
      }
    });
  }

  it('runs the calls of one reply concurrently, one observation each in call order', async () => {
    const order: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = defineTool({
      name: 'slow',
      description: 'waits',
      input: z.object({ n: z.number() }),
      run: async ({ n }) => {
        order.push(`start ${n}`);
        if (n === 1) await gate;
        order.push(`end ${n}`);
        return `slow ${n}`;
      },
    });
    const fast = defineTool({
      name: 'fast',
      description: 'answers at once',
      input: z.object({ n: z.number() }),
      run: ({ n }) => {
        order.push(`fast ${n}`);
        release();
        return `fast ${n}`;
      },
    });
    const events: AgentEvent[] = [];
    const agent = new Agent({
      model: scriptedModel(['[slow(n=1), fast(n=2)]', 'Final Answer: done']),
      tools: [slow, fast],
      protocol: 'react',
    });
    const result = await agent.run('go', { onEvent: (e) => events.push(e) });
    // The fast call ran while the slow one waited: they ran at the same time.
    expect(order).toEqual(['start 1', 'fast 2', 'end 1']);
    const observation = result.steps[0].observation ?? '';
    expect(observation.indexOf('slow 1')).toBeLessThan(observation.indexOf('fast 2'));
    expect(events.filter((e) => e.type === 'tool_start')).toHaveLength(2);
  });
});
