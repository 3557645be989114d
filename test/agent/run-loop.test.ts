import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, type AgentEvent, scriptedModel } from '../../src/index.js';
import { addTool, call, calls, types, waitTool } from './helpers.js';

describe('Agent loop: finishing', () => {
  it('runs a tool, observes, answers: status done with every event in order', async () => {
    const model = scriptedModel([call('add', { a: 2, b: 3 }), 'The sum is 5.']);
    const events: AgentEvent[] = [];
    const result = await new Agent({ model, tools: [addTool] }).run('What is 2 + 3?', {
      onEvent: (e) => events.push(e),
    });
    expect(result.status).toBe('done');
    expect(result.output).toBe('The sum is 5.');
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0].toolCalls[0]).toMatchObject({ name: 'add', ok: true, output: '5' });
    expect(result.usage.llmCalls).toBe(2);
    expect(result.stats).toMatchObject({ llmCalls: 2, toolCalls: 1, invalidReplies: 0 });
    expect(types(events)).toEqual([
      'run_start',
      'step_start',
      'model_request',
      'model_response',
      'tool_start',
      'tool_end',
      'observation',
      'step_start',
      'model_request',
      'model_response',
      'final',
      'run_end',
    ]);
    expect(events.every((e) => e.runId === result.runId && typeof e.ts === 'number')).toBe(true);
    // The second request carries the tool call and its result, paired by id.
    const second = model.calls[1].messages;
    const assistant = second.find((m) => m.role === 'assistant');
    const tool = second.find((m) => m.role === 'tool');
    expect(assistant && 'toolCalls' in assistant && assistant.toolCalls?.[0].id).toBe(
      tool && 'toolCallId' in tool && tool.toolCallId,
    );
  });

  it('streams text as model_delta events', async () => {
    const model = scriptedModel(['A fairly long final answer text.'], { streamChunkSize: 4 });
    const events: AgentEvent[] = [];
    await new Agent({ model }).run('hi', { onEvent: (e) => events.push(e) });
    const deltas = events.filter((e) => e.type === 'model_delta');
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.map((e) => (e.type === 'model_delta' ? e.text : '')).join('')).toBe(
      'A fairly long final answer text.',
    );
  });

  it('runs several calls of one step concurrently and keeps their order', async () => {
    const log: string[] = [];
    const model = scriptedModel([calls(['wait', { id: 'a' }], ['wait', { id: 'b' }], ['wait', { id: 'c' }]), 'ok']);
    const started = Date.now();
    const result = await new Agent({ model, tools: [waitTool('wait', 150, log)] }).run('go');
    expect(Date.now() - started).toBeLessThan(400 + 300);
    expect(log.slice(0, 3)).toEqual(['start:a', 'start:b', 'start:c']);
    expect(result.steps[0].toolCalls.map((c) => c.output)).toEqual(['done a', 'done b', 'done c']);
  });

  it('validates the final answer against outputSchema and sends errors back', async () => {
    const model = scriptedModel(['{"city": "Paris"}', '```json\n{"city": "Paris", "population": 2100000}\n```']);
    const agent = new Agent({ model, outputSchema: z.object({ city: z.string(), population: z.number() }) });
    const result = await agent.run('Describe Paris');
    expect(result.status).toBe('done');
    expect(result.object).toEqual({ city: 'Paris', population: 2100000 });
    expect(result.stats.invalidReplies).toBe(1);
    const correction = model.calls[1].messages.at(-1)?.content ?? '';
    expect(correction).toMatch(/population/);
    expect(model.calls[0].messages[0].content).toMatch(/JSON Schema/);
  });

  it('a consumer that throws does not break the run', async () => {
    const model = scriptedModel([call('add', { a: 1, b: 1 }), 'two']);
    const result = await new Agent({ model, tools: [addTool] }).run('1+1', {
      onEvent: () => {
        throw new Error('bad consumer');
      },
    });
    expect(result.status).toBe('done');
  });

  it('stream() yields the same events, ending with run_end', async () => {
    const model = scriptedModel([call('add', { a: 1, b: 2 }), 'three']);
    const seen: string[] = [];
    for await (const e of new Agent({ model, tools: [addTool] }).stream('1+2')) seen.push(e.type);
    expect(seen[0]).toBe('run_start');
    expect(seen.at(-1)).toBe('run_end');
    expect(seen).toContain('tool_end');
  });

  it('beforeStep can swap the model for a step; afterStep sees each step', async () => {
    const cheap = scriptedModel(['cheap answer']);
    const main = scriptedModel([call('add', { a: 1, b: 2 })]);
    const seen: number[] = [];
    const agent = new Agent({
      model: main,
      tools: [addTool],
      beforeStep: (state) => (state.step === 1 ? { model: cheap } : undefined),
      afterStep: (step) => {
        seen.push(step.index);
      },
    });
    const result = await agent.run('x');
    expect(result.output).toBe('cheap answer');
    expect(main.calls).toHaveLength(1);
    expect(cheap.calls).toHaveLength(1);
    expect(seen).toEqual([0, 1]);
  });

  it('reads ReAct text replies with the react protocol and puts observations back', async () => {
    const model = scriptedModel([
      'Thought: add them\nAction: add\nAction Input: {"a": 4, "b": 5}',
      'Thought: done\nFinal Answer: 9',
    ]);
    const events: AgentEvent[] = [];
    const result = await new Agent({ model, tools: [addTool], protocol: 'react' }).run('4+5?', {
      onEvent: (e) => events.push(e),
    });
    expect(result).toMatchObject({ status: 'done', output: '9' });
    expect(events.filter((e) => e.type === 'thought')).toHaveLength(2);
    expect(JSON.stringify(model.calls[1].messages)).toMatch(/9/);
    expect(model.calls[0].tools).toBeUndefined();
    // Local models constrain decoding to the tools the prompt describes.
    expect(model.calls[0].promptTools?.map((t) => t.name)).toEqual(['add']);
    expect(model.calls[0].protocol).toBe('react');
  });
});

describe('Agent loop: beforeStep tool sets', () => {
  it('beforeStep can show the model a different tool set for one step', async () => {
    const other = {
      ...addTool,
      name: 'multiply',
      description: 'Multiplies two numbers.',
      run: ({ a, b }: { a: number; b: number }) => a * b,
    };
    const model = scriptedModel(['first', 'unused']);
    const seen: string[][] = [];
    await new Agent({
      model,
      tools: [addTool, other],
      beforeStep: (state) => {
        seen.push(state.tools.map((t) => t.name));
        return { tools: [other] };
      },
    }).run('x');
    expect(seen[0]).toEqual(['add', 'multiply']);
    expect(model.calls[0].tools?.map((t) => t.name)).toEqual(['multiply']);
  });
});
