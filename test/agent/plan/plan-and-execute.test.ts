import { describe, expect, it } from 'vitest';
import { planAndExecute } from '../../../src/entries/planning.js';
import { Agent, type AgentEvent, scriptedModel } from '../../../src/index.js';
import { plan, plannerRole, scriptedExecutor, scriptedPlanner, stepOf } from './plan-helpers.js';

function collect() {
  const events: AgentEvent[] = [];
  return { events, onEvent: (e: AgentEvent) => events.push(e) };
}

describe('planAndExecute: the plan, its steps and the answer', () => {
  it('plans, runs each step with the earlier results as context, then writes the answer', async () => {
    const planner = scriptedPlanner({ plan: [plan('find A', 'find B')], answer: ['A and B'] });
    const executor = scriptedExecutor();
    const { events, onEvent } = collect();
    const result = await planAndExecute({ planner, executor: executor.agent }).run('Tell me A and B', { onEvent });

    expect(result.status).toBe('done');
    expect(result.output).toBe('A and B');
    expect(result.steps.map((s) => [s.index, s.answer])).toEqual([
      [0, 'done: find A'],
      [1, 'done: find B'],
    ]);
    // plan + 2 replans + answer by the planner, 2 executor calls.
    expect(planner.calls.map(plannerRole)).toEqual(['plan', 'replan', 'replan', 'answer']);
    expect(result.usage.llmCalls).toBe(6);
    expect(result.stats.llmCalls).toBe(6);

    // The second step sees the task, the plan and the first step's result.
    const second = executor.model.calls[1].messages.find((m) => m.role === 'user')?.content ?? '';
    expect(second).toContain('Task: Tell me A and B');
    expect(second).toContain('1. find A\n2. find B');
    expect(second).toContain('done: find A');
    expect(stepOf(executor.model.calls[1])).toBe('find B');
    // The answer call sees every result.
    const answerPrompt = planner.calls[3].messages.at(-1)?.content ?? '';
    expect(answerPrompt).toContain('done: find B');

    const mine = events.filter((e) => e.runId === result.runId).map((e) => e.type);
    expect(mine.filter((t) => t !== 'model_delta')).toEqual([
      'run_start',
      'model_request',
      'model_response',
      'plan_create',
      'model_request',
      'model_response',
      'model_request',
      'model_response',
      'model_request',
      'model_response',
      'final',
      'run_end',
    ]);
    expect(events.find((e) => e.type === 'plan_create')).toMatchObject({ plan: ['find A', 'find B'] });
  });

  it('nests every executor event under the planning run (parentRunId)', async () => {
    const planner = scriptedPlanner({ plan: [plan('one', 'two')] });
    const { events, onEvent } = collect();
    const result = await planAndExecute({ planner, executor: scriptedExecutor().agent }).run('go', {
      onEvent,
      parentRunId: 'outer',
    });
    const child = events.filter((e) => e.runId !== result.runId);
    const childRuns = new Set(child.map((e) => e.runId));
    expect(childRuns.size).toBe(2);
    expect(child.every((e) => e.parentRunId === result.runId)).toBe(true);
    expect(child.filter((e) => e.type === 'run_start')).toHaveLength(2);
    // The planning run's own events carry its own caller's id.
    expect(events.filter((e) => e.runId === result.runId).every((e) => e.parentRunId === 'outer')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', runId: result.runId, status: 'done' });
  });

  it('streams the same events, ending with run_end', async () => {
    const planner = scriptedPlanner({ plan: [plan('only')] });
    const types: string[] = [];
    for await (const e of planAndExecute({ planner, executor: scriptedExecutor().agent }).stream('go')) {
      types.push(e.type);
    }
    expect(types[0]).toBe('run_start');
    expect(types).toContain('plan_create');
    expect(types.filter((t) => t === 'run_end')).toHaveLength(2);
    expect(types.at(-1)).toBe('run_end');
  });
});

describe('planAndExecute: language', () => {
  it('writes the planner prompts in Chinese when language is zh', async () => {
    const planner = scriptedModel(['{"steps": ["第一步"]}', '{"action":"continue"}', '答案']);
    const executor = scriptedExecutor(() => '完成');
    const result = await planAndExecute({ planner, executor: executor.agent, language: 'zh' }).run('任务');
    expect(result).toMatchObject({ status: 'done', output: '答案' });
    expect(planner.calls[0].messages[0].content).toMatch(/只用 JSON 回复/);
    expect(executor.model.calls[0].messages.at(-1)?.content).toMatch(/现在只执行第 1 步：第一步/);
  });
});

describe('planAndExecute: revising the plan', () => {
  it('a replan replaces the remaining steps, emits plan_update and runs the new steps', async () => {
    const planner = scriptedPlanner({
      plan: [plan('look up X', 'old step')],
      replan: [JSON.stringify({ action: 'replan', steps: ['new step 1', 'new step 2'], reason: 'X was not there' })],
      answer: ['final'],
    });
    const executor = scriptedExecutor();
    const { events, onEvent } = collect();
    const result = await planAndExecute({ planner, executor: executor.agent }).run('task', { onEvent });
    expect(result.status).toBe('done');
    expect(executor.model.calls.map(stepOf)).toEqual(['look up X', 'new step 1', 'new step 2']);
    const update = events.find((e) => e.type === 'plan_update');
    expect(update).toMatchObject({ plan: ['look up X', 'new step 1', 'new step 2'], reason: 'X was not there' });
  });

  it('records a step whose run did not finish and lets the replanner route around it', async () => {
    const planner = scriptedPlanner({
      plan: [plan('fragile step', 'use it')],
      replan: [
        (request) => {
          const question = request.messages.at(-1)?.content ?? '';
          expect(question).toMatch(/did not finish: max_steps/);
          return '{"action":"replan","steps":["safer step"]}';
        },
      ],
    });
    const model = scriptedModel((request) =>
      stepOf(request) === 'fragile step'
        ? { text: '', toolCalls: [{ id: 'c1', name: 'nothing', arguments: '{}' }] }
        : `ok: ${stepOf(request)}`,
    );
    const executor = new Agent({ model, maxSteps: 1, finalAnswerOnMaxSteps: false });
    const result = await planAndExecute({ planner, executor }).run('task');
    expect(result.status).toBe('done');
    expect(result.steps.at(-1)?.answer).toBe('ok: safer step');
    expect(result.steps.map((s) => s.index)).toEqual([0, 1]);
  });

  it('the replanner may finish early with the answer', async () => {
    const planner = scriptedPlanner({
      plan: [plan('a', 'b', 'c')],
      replan: ['Done already:\n```json\n{"action": "finish", "answer": "42"}\n```'],
    });
    const executor = scriptedExecutor();
    const result = await planAndExecute({ planner, executor: executor.agent }).run('task');
    expect(result).toMatchObject({ status: 'done', output: '42' });
    expect(executor.model.calls).toHaveLength(1);
    expect(planner.calls.map(plannerRole)).toEqual(['plan', 'replan']);
  });

  it('an unreadable replanner reply continues the plan with a warning', async () => {
    const planner = scriptedPlanner({ plan: [plan('a', 'b')], replan: ['I think we should keep going.'] });
    const executor = scriptedExecutor();
    const { events, onEvent } = collect();
    const result = await planAndExecute({ planner, executor: executor.agent }).run('task', { onEvent });
    expect(result.status).toBe('done');
    expect(executor.model.calls).toHaveLength(2);
    expect(events.find((e) => e.type === 'warning')).toMatchObject({ code: 'replan_unreadable' });
    expect(result.stats.invalidReplies).toBe(1);
  });

  it('uses a separate replanner model when given one', async () => {
    const planner = scriptedPlanner({ plan: [plan('a')], answer: ['done'] });
    const replanner = scriptedModel(['{"action":"continue"}']);
    const result = await planAndExecute({ planner, replanner, executor: scriptedExecutor().agent }).run('task');
    expect(result.status).toBe('done');
    expect(replanner.calls).toHaveLength(1);
    expect(planner.calls.map(plannerRole)).toEqual(['plan', 'answer']);
  });
});

describe('planAndExecute: bad plans', () => {
  it('tells the planner exactly what was wrong and uses the fixed plan', async () => {
    const planner = scriptedPlanner({
      plan: ['Here is my plan: {"steps": []}', "```json\n{steps: ['fixed step',],}\n```"],
    });
    const { events, onEvent } = collect();
    const result = await planAndExecute({ planner, executor: scriptedExecutor().agent }).run('task', { onEvent });
    expect(result.status).toBe('done');
    expect(result.steps[0].answer).toBe('done: fixed step');
    const correction = planner.calls[1].messages.at(-1)?.content ?? '';
    expect(correction).toMatch(/steps: Too small/);
    expect(planner.calls[1].messages.at(-2)).toMatchObject({
      role: 'assistant',
      content: 'Here is my plan: {"steps": []}',
    });
    expect(events.filter((e) => e.type === 'invalid_output')).toHaveLength(1);
    expect(result.stats.invalidReplies).toBe(1);
  });

  it('accepts a bare JSON array as the plan', async () => {
    const planner = scriptedPlanner({ plan: ['["x", "y"]'] });
    const result = await planAndExecute({ planner, executor: scriptedExecutor().agent }).run('task');
    expect(result.steps.map((s) => s.answer)).toEqual(['done: x', 'done: y']);
  });

  it('ends failed with the reason after two retries', async () => {
    const planner = scriptedPlanner({ plan: ['no json here', '{"steps": "one"}', plan(...'abcdefghij'.split(''))] });
    const executor = scriptedExecutor();
    const result = await planAndExecute({ planner, executor: executor.agent }).run('task');
    expect(result.status).toBe('failed');
    expect(result.error?.code).toBe('invalid_plan');
    expect(result.error?.message).toMatch(/3 tries.*steps: Too big/);
    expect(planner.calls).toHaveLength(3);
    expect(executor.model.calls).toHaveLength(0);
  });

  it('a planner that throws ends the run failed, not rejected', async () => {
    const planner = scriptedModel([]);
    const result = await planAndExecute({ planner, executor: scriptedExecutor().agent }).run('task');
    expect(result.status).toBe('failed');
    expect(result.error?.code).toBe('script_exhausted');
  });

  it('rejects bad options with a clear message', () => {
    const executor = scriptedExecutor().agent;
    expect(() => planAndExecute({ planner: scriptedModel([]), executor, maxPlanSteps: 0 })).toThrow(/maxPlanSteps/);
    expect(() => planAndExecute({ executor } as never)).toThrow(/planner model/);
  });
});
