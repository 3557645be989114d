import { describe, expect, it } from 'vitest';
import { planAndExecute } from '../../../src/entries/planning.js';
import { plan, scriptedExecutor, scriptedPlanner } from './plan-helpers.js';

describe('planAndExecute: usage detail', () => {
  it("adds the executor runs' cached and reasoning tokens to the plan's usage", async () => {
    const planner = scriptedPlanner({ plan: [plan('find A')], answer: ['A'] });
    const executor = scriptedExecutor((s) => ({
      text: `done: ${s}`,
      usage: { promptTokens: 100, completionTokens: 10, cacheReadTokens: 60, reasoningTokens: 4 },
    }));
    const result = await planAndExecute({ planner, executor: executor.agent }).run('Tell me A');
    expect(result.status).toBe('done');
    expect(result.usage).toMatchObject({ cacheReadTokens: 60, reasoningTokens: 4 });
  });
});
