import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, askUserTool, type Checkpoint, defineTool, scriptedModel } from '../../src/index.js';
import { addTool, call, calls } from './helpers.js';

describe('Agent checkpoints and resume', () => {
  it('checkpoints before every model call, before the tools of a step run, as each call ends and at the answer', async () => {
    const seen: Checkpoint[] = [];
    const model = scriptedModel([call('add', { a: 1, b: 2 }), 'three']);
    await new Agent({ model, tools: [addTool] }).run('x', { onCheckpoint: (c) => void seen.push(structuredClone(c)) });
    const shape = (c: Checkpoint) => [
      c.steps.length,
      c.pending?.calls[0].name ?? c.final?.answer ?? null,
      c.pending?.done.length ?? null,
    ];
    expect(seen.map(shape)).toEqual([
      [0, null, null],
      [0, 'add', 0],
      [0, 'add', 1],
      [1, null, null],
      [2, 'three', null],
    ]);
  });

  it('resumes a crashed step: keeps finished calls, reruns idempotent ones, tells the model about the rest', async () => {
    const ran: string[] = [];
    const make = (name: string, idempotent: boolean) =>
      defineTool({
        name,
        description: name,
        input: z.object({}),
        idempotent,
        run: () => {
          ran.push(name);
          return `${name} ok`;
        },
      });
    const tools = [make('lookup', true), make('charge', false), make('log', false)];
    const checkpoint: Checkpoint = {
      runId: 'r1',
      input: 'pay',
      steps: [],
      usage: { promptTokens: 10, completionTokens: 5, llmCalls: 1 },
      stats: {
        llmCalls: 1,
        toolCalls: 0,
        toolErrors: 0,
        invalidReplies: 0,
        repairedReplies: 0,
        habits: {},
        repetitionWarnings: 0,
        retries: 0,
        cacheHits: 0,
        cachedTokens: 0,
        compactions: 0,
      },
      pending: {
        index: 0,
        raw: '',
        calls: [
          { id: 'a', name: 'log', input: {} },
          { id: 'b', name: 'lookup', input: {} },
          { id: 'c', name: 'charge', input: {} },
        ],
        done: [{ id: 'a', name: 'log', input: {}, output: 'log ok', ok: true, durationMs: 1 }],
      },
    };
    const model = scriptedModel(['All done.']);
    const result = await new Agent({ model, tools }).run('pay', { runId: 'r1', resume: checkpoint });
    expect(result.status).toBe('done');
    expect(ran).toEqual(['lookup']);
    expect(result.steps[0].toolCalls.map((c) => c.output)).toEqual([
      'log ok',
      'lookup ok',
      expect.stringMatching(/interrupted by a restart/),
    ]);
    expect(model.calls).toHaveLength(1);
    expect(result.usage.llmCalls).toBe(2);
    const sent = JSON.stringify(model.calls[0].messages);
    expect(sent).toContain('interrupted by a restart');
  });

  it('resumes after finished steps without calling the model for them again', async () => {
    const first = await new Agent({
      model: scriptedModel([calls(['add', { a: 1, b: 1 }]), 'two']),
      tools: [addTool],
    }).run('1+1');
    const model = scriptedModel(['two, again']);
    const resumed = await new Agent({ model, tools: [addTool] }).run('1+1', {
      resume: { runId: 'r', input: '1+1', steps: first.steps.slice(0, 1), usage: first.usage, stats: first.stats },
    });
    expect(resumed.output).toBe('two, again');
    expect(model.calls).toHaveLength(1);
    expect(JSON.stringify(model.calls[0].messages)).toContain('"2"');
  });
});

describe('Asking the user', () => {
  it('ask_user reaches the run’s ask with the question and the asking call', async () => {
    const seen: { question: string; callId: string; tool: string }[] = [];
    const model = scriptedModel([call('ask_user', { question: 'Which city?' }, 'call_ask'), 'Paris it is.']);
    const result = await new Agent({ model, tools: [askUserTool] }).run('Book a table', {
      ask: async (question, c) => {
        seen.push({ question, ...c });
        return 'Paris';
      },
    });
    expect(seen).toEqual([{ question: 'Which city?', callId: 'call_ask', tool: 'ask_user' }]);
    expect(result.steps[0].toolCalls[0].output).toMatch(/Paris/);
  });
});
