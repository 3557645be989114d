import { describe, expect, it } from 'vitest';
import { createSupervisor, planAndExecute } from '../../src/entries/planning.js';
import { Agent, type AgentEvent, scriptedModel } from '../../src/index.js';
import { addTool, call, calls } from './helpers.js';

const usage = (tokens: number) => ({ usage: { promptTokens: tokens, completionTokens: 0 } });

function workers() {
  const mathModel = scriptedModel([call('add', { a: 2, b: 3 }), 'The sum is 5.'], { id: 'math-model' });
  const writerModel = scriptedModel(['Roses are red.'], { id: 'writer-model' });
  return {
    mathModel,
    writerModel,
    math: new Agent({ name: 'math', model: mathModel, tools: [addTool] }),
    writer: new Agent({ name: 'writer', model: writerModel }),
  };
}

describe('createSupervisor', () => {
  it('routes two sub-tasks to two workers and merges their results', async () => {
    const w = workers();
    const model = scriptedModel([
      calls(['math', { task: 'Add 2 and 3.' }], ['poet', { task: 'Write one line about roses.' }]),
      'Merged: 5, and "Roses are red."',
    ]);
    const supervisor = createSupervisor({
      model,
      workers: {
        math: { agent: w.math, description: 'Does arithmetic' },
        poet: { agent: w.writer, description: 'Writes poems' },
      },
      instructions: 'Be brief.',
    });
    const events: AgentEvent[] = [];
    const result = await supervisor.run('Add 2 and 3, and write a line about roses.', {
      onEvent: (e) => events.push(e),
    });

    expect(result.status).toBe('done');
    expect(result.output).toBe('Merged: 5, and "Roses are red."');
    expect(w.mathModel.calls[0].messages.at(-1)?.content).toBe('Add 2 and 3.');
    expect(w.writerModel.calls[0].messages.at(-1)?.content).toBe('Write one line about roses.');
    // The supervisor saw both results, each labelled with its worker.
    expect(result.steps[0].observation).toContain('[math] The sum is 5.');
    expect(result.steps[0].observation).toContain('[poet] Roses are red.');
    // The routing instructions list the workers, then the user's own instructions.
    const system = model.calls[0].messages[0].content;
    expect(system).toMatch(/- math: Does arithmetic\n- poet: Writes poems/);
    expect(system).toContain('Be brief.');
    expect(model.calls[0].tools?.map((t) => t.name)).toEqual(['math', 'poet']);
    // Worker events nest under the supervisor's run; their tokens count in its usage.
    const nested = events.filter((e) => e.runId !== result.runId);
    expect(new Set(nested.map((e) => e.runId)).size).toBe(2);
    expect(nested.every((e) => e.parentRunId === result.runId)).toBe(true);
    expect(nested.filter((e) => e.type === 'run_start').map((e) => e.type === 'run_start' && e.agent)).toEqual(
      expect.arrayContaining(['math', 'writer']),
    );
    expect(result.usage.llmCalls).toBe(2 + 2 + 1);
  });

  it('a failing worker becomes an observation and the supervisor carries on', async () => {
    const broken = new Agent({ name: 'broken', model: scriptedModel([]) });
    const w = workers();
    const model = scriptedModel([
      call('broken', { task: 'Do it.' }),
      call('poet', { task: 'Do it another way.' }),
      'Done another way: Roses are red.',
    ]);
    const supervisor = createSupervisor({
      model,
      workers: {
        broken: { agent: broken, description: 'Always fails' },
        poet: { agent: w.writer, description: 'Writes poems' },
      },
    });
    const result = await supervisor.run('task');
    expect(result.status).toBe('done');
    expect(result.output).toBe('Done another way: Roses are red.');
    expect(result.steps[0].toolCalls[0]).toMatchObject({ name: 'broken', ok: false });
    expect(result.steps[0].observation).toMatch(/broken.*failed.*broken ended failed.*ran out of replies/s);
    expect(result.stats.toolErrors).toBe(1);
  });

  it('a worker never exceeds what is left of the supervisor budget', async () => {
    // The supervisor's first call costs 30 of its 100 tokens; the worker would call tools forever at 35 a call.
    const workerModel = scriptedModel((_, i) => ({ ...call('add', { a: i, b: 1 }), ...usage(35) }));
    const worker = new Agent({ name: 'spender', model: workerModel, tools: [addTool], maxSteps: 50 });
    const model = scriptedModel([{ ...call('spender', { task: 'Spend.' }), ...usage(30) }, 'never reached']);
    const events: AgentEvent[] = [];
    const supervisor = createSupervisor({
      model,
      workers: { spender: { agent: worker, description: 'Spends tokens' } },
      budget: { maxTotalTokens: 100 },
    });
    const result = await supervisor.run('task', { onEvent: (e) => events.push(e) });

    const child = events.find((e) => e.type === 'run_end' && e.runId !== result.runId);
    expect(child).toMatchObject({ status: 'budget_exceeded', parentRunId: result.runId });
    expect(child?.type === 'run_end' && child.error?.message).toMatch(/budget is 70/);
    expect(workerModel.calls).toHaveLength(2);
    expect(result.status).toBe('budget_exceeded');
    expect(result.usage.promptTokens + result.usage.completionTokens).toBe(100);
    expect(model.calls).toHaveLength(1);
  });

  it('needs at least one worker', () => {
    expect(() => createSupervisor({ model: scriptedModel([]), workers: {} })).toThrow(/at least one worker/);
  });
});

describe('createSupervisor with a planning worker', () => {
  it('runs a planAndExecute worker whose events nest two levels deep', async () => {
    const planner = scriptedModel(['{"steps": ["look it up"]}', '{"action":"finish","answer":"Lyon grew."}']);
    const executor = new Agent({ name: 'executor', model: scriptedModel(['Found it.']) });
    const researcher = planAndExecute({ name: 'researcher', planner, executor });
    const model = scriptedModel([call('research', { task: 'How did Lyon grow?' }), 'Report: Lyon grew.']);
    const supervisor = createSupervisor({
      model,
      workers: { research: { agent: researcher, description: 'Plans and researches' } },
    });
    const events: AgentEvent[] = [];
    const result = await supervisor.run('Lyon?', { onEvent: (e) => events.push(e) });
    expect(result).toMatchObject({ status: 'done', output: 'Report: Lyon grew.' });
    const planStart = events.find((e) => e.type === 'run_start' && e.agent === 'researcher');
    expect(planStart?.parentRunId).toBe(result.runId);
    const executorStart = events.find((e) => e.type === 'run_start' && e.agent === 'executor');
    expect(executorStart?.parentRunId).toBe(planStart?.runId);
    expect(result.usage.llmCalls).toBe(2 + 2 + 1);
  });
});
