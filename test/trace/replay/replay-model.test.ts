import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.js';
import type { AgentEvent, ModelResponse } from '../../../src/core/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { type AnyTool, defineTool } from '../../../src/tools/index.js';
import { firstDivergence } from '../../../src/trace/replay/first-divergence.js';
import { replayModel } from '../../../src/trace/replay/replay-model.js';
import { replayTools } from '../../../src/trace/replay/replay-tools.js';

function adder(offset = 0) {
  let runs = 0;
  const tool = defineTool({
    name: 'add',
    description: 'Adds two numbers.',
    input: z.object({ a: z.number(), b: z.number() }),
    run: ({ a, b }) => {
      runs++;
      return String(a + b + offset);
    },
  });
  return { tool, runs: () => runs };
}

const script: ModelResponse[] = [
  {
    text: 'Adding.',
    toolCalls: [{ id: 'c1', name: 'add', arguments: '{"a":2,"b":2}' }],
    usage: { promptTokens: 50, completionTokens: 9 },
  },
  { text: 'The sum is 4.', usage: { promptTokens: 70, completionTokens: 6 } },
];

async function record(): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  const agent = new Agent({
    model: scriptedModel(script),
    tools: [adder().tool],
    protocol: 'native',
    streaming: false,
  });
  const result = await agent.run('What is 2+2?', { onEvent: (e) => events.push(e) });
  expect(result.status).toBe('done');
  return events;
}

async function rerun(model: ReturnType<typeof replayModel>, tools: AnyTool[] = [adder().tool]) {
  const events: AgentEvent[] = [];
  const agent = new Agent({ model, tools, protocol: 'native', streaming: false });
  const result = await agent.run('What is 2+2?', { onEvent: (e) => events.push(e) });
  return { result, events };
}

describe('replayModel', () => {
  it('re-runs a trace to the same result with no divergence', async () => {
    const trace = await record();
    const model = replayModel(trace);
    const { result, events } = await rerun(model);
    expect(result.output).toBe('The sum is 4.');
    expect(result.usage).toMatchObject({ promptTokens: 120, completionTokens: 15 });
    expect(model.divergence).toBeUndefined();
    expect(model.served).toBe(2);
    expect(model.remaining).toBe(0);
    expect(model.id).toBe('scripted');
    expect(firstDivergence(trace, events)).toBeUndefined();
  });

  it('reports the first step whose request differs (a tool now returns something else)', async () => {
    const trace = await record();
    const model = replayModel(trace);
    const { events } = await rerun(model, [adder(1).tool]);
    expect(model.divergence).toMatchObject({ step: 1, kind: 'model_request', expected: '4', actual: '5' });
    expect(model.divergence?.message).toMatch(/message \d \(tool\): content differs/);
    expect(firstDivergence(trace, events)).toMatchObject({ step: 0, kind: 'tool_output', expected: '4', actual: '5' });
  });

  it('throws at the divergence when strict', async () => {
    const trace = await record();
    const model = replayModel(trace, { strict: true });
    const { result } = await rerun(model, [adder(1).tool]);
    expect(result.status).toBe('failed');
    expect(result.error?.message).toMatch(/Replay diverged at step 1: message 4 \(tool\)/);
  });

  it('records a call past the end of the recording', async () => {
    const model = replayModel([]);
    await expect(model.generate({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow(
      /ran out of recorded replies/,
    );
    // Steps are numbered from 0: a call with nothing recorded is at step 0.
    expect(model.divergence).toMatchObject({ kind: 'extra_call', step: 0 });
  });

  it('names the first step only one run has by its number from 0', async () => {
    const trace = await record();
    const firstStepOnly = trace.filter((e) => !('step' in e) || e.step === 0);
    expect(firstDivergence(trace, firstStepOnly)).toMatchObject({ step: 1, kind: 'steps', expected: '2', actual: '1' });
  });

  it('streams the recorded reply', async () => {
    const trace = await record();
    const chunks = [];
    for await (const chunk of replayModel(trace).stream(trace.find((e) => e.type === 'model_request') as never))
      chunks.push(chunk);
    expect(chunks.map((c) => c.type)).toEqual(['text_delta', 'tool_call_delta', 'response']);
  });
});

describe('replayTools', () => {
  it('serves recorded tool outputs without running the real tool', async () => {
    const trace = await record();
    const real = adder(100);
    const model = replayModel(trace);
    const { result } = await rerun(model, replayTools(trace, { tools: [real.tool] }));
    expect(result.output).toBe('The sum is 4.');
    expect(real.runs()).toBe(0);
    expect(model.divergence).toBeUndefined();
  });

  it('keeps the recorded tool spec without the real tools, and rethrows recorded failures', async () => {
    const trace: AgentEvent[] = [
      { type: 'run_start', runId: 'r', ts: 1, input: 'x', model: 'm', protocol: 'native', tools: ['div'] },
      {
        type: 'model_request',
        runId: 'r',
        ts: 2,
        step: 1,
        model: 'm',
        messages: [],
        tools: [{ name: 'div', description: 'Divides.', parameters: { type: 'object' } }],
      },
      { type: 'tool_start', runId: 'r', ts: 3, step: 1, callId: 'c1', tool: 'div', input: { a: 1, b: 0 } },
      {
        type: 'tool_end',
        runId: 'r',
        ts: 4,
        step: 1,
        callId: 'c1',
        tool: 'div',
        ms: 1,
        ok: false,
        output: 'Error',
        error: 'division by zero',
      },
      { type: 'tool_start', runId: 'r', ts: 5, step: 1, callId: 'c2', tool: 'div', input: { a: 4, b: 2 } },
      { type: 'tool_end', runId: 'r', ts: 6, step: 1, callId: 'c2', tool: 'div', ms: 1, ok: true, output: '2' },
    ];
    const [div] = replayTools(trace);
    expect(div).toMatchObject({ name: 'div', description: 'Divides.' });
    const ctx = {} as never;
    expect(await div.run({ a: 4, b: 2 }, ctx)).toBe('2');
    expect(() => div.run({ a: 1, b: 0 }, ctx)).toThrow('division by zero');
    expect(() => div.run({ a: 1, b: 0 }, ctx)).toThrow(/No recorded output left for tool div/);
  });

  it('matches a call whose parsed input holds a Date to the recorded call with that date, not the next one', async () => {
    const agenda = defineTool({
      name: 'agenda',
      description: 'What is on a day.',
      input: z.object({ day: z.coerce.date() }),
      run: ({ day }) => `live ${day.toISOString()}`,
    });
    const call = (callId: string, day: string, output: string, ts: number): AgentEvent[] => [
      { type: 'tool_start', runId: 'r', ts, step: 1, callId, tool: 'agenda', input: { day } },
      { type: 'tool_end', runId: 'r', ts: ts + 1, step: 1, callId, tool: 'agenda', ms: 1, ok: true, output },
    ];
    const trace: AgentEvent[] = [
      { type: 'run_start', runId: 'r', ts: 1, input: 'x', model: 'm', protocol: 'native', tools: ['agenda'] },
      // The trace holds the parsed input as JSON: the Date as its ISO string.
      ...call('c1', '2026-01-01T00:00:00.000Z', 'new year', 2),
      ...call('c2', '2026-12-24T00:00:00.000Z', 'christmas eve', 4),
    ];
    const [replayed] = replayTools(trace, { tools: [agenda] });
    const ctx = {} as never;
    const parsed = (day: string) => {
      const result = replayed.parse({ day });
      if (!result.ok) throw new Error('bad input');
      return result.value;
    };
    // Asked in the other order: each call still gets its own recorded output.
    expect(await replayed.run(parsed('2026-12-24'), ctx)).toBe('christmas eve');
    expect(await replayed.run(parsed('2026-01-01'), ctx)).toBe('new year');
  });
});
