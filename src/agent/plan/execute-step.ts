import { addStats, type RunResult } from '../../core/index.js';
import type { Language } from '../../protocols/index.js';
import type { Budget } from '../guards/index.js';
import { addChildUsage } from '../run/index.js';
import { type RunnableAgent, tighter } from '../team/index.js';
import type { PlannerCall } from './ask-planner.js';
import { type PlanView, planPrompts } from './plan-prompts.js';
import type { StepResult } from './step-result.js';

/**
 * Runs plan step `index` as one executor run, with the task, the plan and the earlier results as
 * context. Its events are forwarded (nested under the planning run), it gets no more budget than
 * the planning run has left, and its usage and stats are added to the planning run's.
 */
export async function executeStep(
  executor: RunnableAgent,
  view: PlanView,
  options: { index: number; language: Language; remaining: Budget | undefined },
  call: PlannerCall,
): Promise<{ result: StepResult; run: RunResult }> {
  const { state, emit, signal } = call;
  const { index } = options;
  const run = await executor.run(planPrompts(options.language).stepTask(view, index), {
    parentRunId: state.runId,
    onEvent: emit,
    signal,
    budget: tighter(executor.options.budget, options.remaining),
  });
  addChildUsage(state, run.usage);
  if (run.usage.costUsd !== undefined) state.usage.costUsd = (state.usage.costUsd ?? 0) + run.usage.costUsd;
  addStats(state.stats, run.stats);
  for (const step of run.steps) state.steps.push({ ...step, index: state.steps.length });
  const result: StepResult = {
    step: view.plan[index],
    runId: run.runId,
    status: run.status,
    output: run.output,
    error: run.error?.message,
  };
  return { result, run };
}
