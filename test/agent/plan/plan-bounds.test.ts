import { describe, expect, it } from 'vitest';
import { planAndExecute } from '../../../src/entries/planning.js';
import { Agent, type AgentEvent, scriptedModel } from '../../../src/index.js';
import { addTool } from '../helpers.js';
import { plan, plannerRole, scriptedExecutor, scriptedPlanner, withUsage } from './plan-helpers.js';

describe('planAndExecute: maxPlanSteps', () => {
  it('stops after maxPlanSteps executed steps with status max_steps and the best answer so far', async () => {
    const planner = scriptedPlanner({
      plan: [plan('a', 'b')],
      replan: ['{"action":"continue"}', '{"action":"replan","steps":["c","d"],"reason":"more to do"}'],
      answer: ['best so far'],
    });
    const executor = scriptedExecutor();
    const result = await planAndExecute({ planner, executor: executor.agent, maxPlanSteps: 2 }).run('task');
    expect(result.status).toBe('max_steps');
    expect(result.error?.code).toBe('max_plan_steps');
    expect(result.output).toBe('best so far');
    expect(executor.model.calls).toHaveLength(2);
    expect(planner.calls.map(plannerRole)).toEqual(['plan', 'replan', 'replan', 'answer']);
  });

  it('a plan longer than maxPlanSteps is sent back to the planner', async () => {
    const planner = scriptedPlanner({ plan: [plan('a', 'b', 'c'), plan('a and b', 'c')] });
    const result = await planAndExecute({ planner, executor: scriptedExecutor().agent, maxPlanSteps: 2 }).run('t');
    expect(result.status).toBe('done');
    expect(planner.calls[1].messages.at(-1)?.content).toMatch(/1 to 2 non-empty steps/);
  });
});

describe('planAndExecute: budgets and abort', () => {
  it('counts planner and executor tokens against one budget; the executor gets only what is left', async () => {
    // The plan costs 10 tokens; each executor call 30 and would go on calling tools forever.
    const planner = scriptedPlanner({ plan: [plan('loop', 'never reached')] }, 10);
    const model = scriptedModel((_, i) =>
      withUsage({ text: '', toolCalls: [{ id: `c${i}`, name: 'add', arguments: `{"a":${i},"b":1}` }] }, 30),
    );
    const executor = new Agent({ model, tools: [addTool], maxSteps: 50 });
    const events: AgentEvent[] = [];
    const result = await planAndExecute({ planner, executor, budget: { maxTotalTokens: 100 } }).run('task', {
      onEvent: (e) => events.push(e),
    });
    expect(result.status).toBe('budget_exceeded');
    expect(result.error?.code).toBe('token_budget');
    const child = events.find((e) => e.type === 'run_end' && e.runId !== result.runId);
    expect(child).toMatchObject({
      status: 'budget_exceeded',
      error: { message: expect.stringMatching(/budget is 90/) },
    });
    // 10 (plan) + 3 × 30 (executor): the run stays within its 100 tokens and asks the planner nothing more.
    expect(result.usage.promptTokens + result.usage.completionTokens).toBe(100);
    expect(result.usage.llmCalls).toBe(4);
    expect(planner.calls).toHaveLength(1);
    expect(result.steps).toHaveLength(3);
  });

  it('a budget given to run() replaces the one given to planAndExecute()', async () => {
    const planner = scriptedPlanner({ plan: [plan('a'), plan('a')] }, 10);
    const runner = planAndExecute({ planner, executor: scriptedExecutor().agent, budget: { maxTotalTokens: 5 } });
    expect((await runner.run('task')).status).toBe('budget_exceeded');
    expect((await runner.run('task', { budget: { maxTotalTokens: 1000 } })).status).toBe('done');
  });

  it('the time budget ends a slow executor step budget_exceeded', async () => {
    const planner = scriptedPlanner({ plan: [plan('slow')] });
    const executor = new Agent({ model: scriptedModel(['late'], { delayMs: 5000 }) });
    const started = Date.now();
    const result = await planAndExecute({ planner, executor, budget: { maxDurationMs: 150 } }).run('task');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result.status).toBe('budget_exceeded');
    expect(result.error?.code).toBe('time_budget');
  });

  it('abort ends the run aborted, not rejected', async () => {
    const planner = scriptedPlanner({ plan: [plan('slow')] });
    const executor = new Agent({ model: scriptedModel(['late'], { delayMs: 5000 }) });
    const controller = new AbortController();
    const started = Date.now();
    const result = await planAndExecute({ planner, executor }).run('task', {
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'plan_create') setTimeout(() => controller.abort(), 20);
      },
    });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result.status).toBe('aborted');
  });
});
