import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.js';
import type { AgentEvent } from '../../../src/core/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { type AnswerPart, createAnswerPartReader } from '../../../src/protocols/index.js';
import { defineTool } from '../../../src/tools/index.js';

const weather = defineTool({
  name: 'weather',
  description: 'The weather in a city.',
  input: z.object({ city: z.string() }),
  run: ({ city }) => `Sunny in ${city}`,
});

/** A real run's events read into answer parts. */
async function partsOf(agent: Agent, options: Parameters<Agent['run']>[1] = {}): Promise<AnswerPart[]> {
  const events: AgentEvent[] = [];
  const result = await agent.run('Weather?', { ...options, onEvent: (e) => events.push(e) });
  const reader = createAnswerPartReader({ runId: result.runId });
  return events.flatMap((e) => reader.read(e));
}

const texts = (parts: AnswerPart[]) => {
  const segments: string[] = [];
  for (const p of parts) {
    if (p.type === 'text_start') segments.push('');
    if (p.type === 'text_delta') segments[segments.length - 1] += p.text;
  }
  return segments;
};

describe('answer parts', () => {
  it('native protocol: what the model says before a tool call, the call, its result, the answer, in steps', async () => {
    for (const streaming of [true, false]) {
      const agent = new Agent({
        streaming,
        model: scriptedModel((request) =>
          request.messages.some((m) => m.role === 'tool')
            ? 'It is sunny in Paris, all day long.'
            : { text: 'Let me check.', toolCalls: [{ id: 'w1', name: 'weather', arguments: '{"city":"Paris"}' }] },
        ),
        tools: [weather],
      });
      const parts = await partsOf(agent);
      // Streamed, the text comes in pieces (once it cannot be scaffolding); not streamed, one delta per segment.
      expect(parts.filter((p) => p.type === 'text_delta').length > 2).toBe(streaming);
      expect(texts(parts)).toEqual(['Let me check.', 'It is sunny in Paris, all day long.']);
      expect(parts.map((p) => p.type).filter((t) => !t.startsWith('text_'))).toEqual([
        'step_start',
        'tool_call',
        'tool_result',
        'step_end',
        'step_start',
        'step_end',
        'run_end',
      ]);
      expect(parts.find((p) => p.type === 'tool_call')).toMatchObject({
        callId: 'w1',
        tool: 'weather',
        input: { city: 'Paris' },
        arguments: '{"city":"Paris"}',
      });
      expect(parts.find((p) => p.type === 'tool_result')).toMatchObject({
        ok: true,
        output: 'Sunny in Paris',
        denied: false,
      });
    }
  });

  it('react protocol: the scaffolding stays out, the call and the final answer go in', async () => {
    const agent = new Agent({
      protocol: 'react',
      model: scriptedModel([
        'Thought: I need the weather.\nAction: weather\nAction Input: {"city": "Paris"}',
        'Thought: done.\nFinal Answer: Sunny in Paris.',
      ]),
      tools: [weather],
    });
    const parts = await partsOf(agent);
    expect(texts(parts)).toEqual(['Sunny in Paris.']);
    expect(parts.find((p) => p.type === 'tool_call')).toMatchObject({ tool: 'weather', input: { city: 'Paris' } });
  });

  it('a denied call is a question, its answer, and a denied result', async () => {
    const deploy = defineTool({
      name: 'deploy',
      description: 'Deploys.',
      input: z.object({ service: z.string() }),
      needsApproval: true,
      run: () => 'deployed',
    });
    const agent = new Agent({
      model: scriptedModel([
        { text: '', toolCalls: [{ id: 'd1', name: 'deploy', arguments: '{"service":"api"}' }] },
        'OK.',
      ]),
      tools: [deploy],
    });
    const parts = await partsOf(agent, { approve: () => false });
    const types = parts.map((p) => p.type);
    expect(types.indexOf('tool_call')).toBeLessThan(types.indexOf('question'));
    expect(parts.find((p) => p.type === 'question')).toMatchObject({ kind: 'approval', callId: 'd1', tool: 'deploy' });
    expect(parts.find((p) => p.type === 'answered')).toMatchObject({ approved: false });
    expect(parts.find((p) => p.type === 'tool_result')).toMatchObject({ ok: false, denied: true });
  });

  it('ignores the events of the agents a run called, and a continued reader does not announce known calls', () => {
    const reader = createAnswerPartReader({ runId: 'r1', knownCalls: ['c1'] });
    const base = { ts: 0, step: 0 };
    expect(reader.read({ ...base, type: 'model_delta', runId: 'child', parentRunId: 'r1', text: 'hi' })).toEqual([]);
    expect(reader.read({ ...base, type: 'tool_start', runId: 'r1', callId: 'c1', tool: 'x', input: {} })).toEqual([]);
  });
});
