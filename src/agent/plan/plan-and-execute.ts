import { ConfigError } from '../../core/index.js';
import { streamRun } from '../run/index.js';
import { agentAsTool } from '../team/index.js';
import type { PlanAndExecute, PlanAndExecuteOptions } from './plan-options.js';
import { runPlan } from './run-plan.js';

/**
 * Plan-and-execute: a planner model writes a numbered plan, an executor agent runs each step with
 * the earlier results as context, and after each step a replanner may revise the rest or finish.
 * The plan and each revision are events (`plan_create`, `plan_update`); the executor's events nest
 * under the planning run. `maxPlanSteps` and the budget (tokens over every call, wall time) bound it.
 *
 * @example
 * const researcher = planAndExecute({
 *   planner: openaiCompatible({ model: 'gpt-4o' }),
 *   executor: new Agent({ model: openaiCompatible({ model: 'gpt-4o-mini' }), tools: [webSearch] }),
 *   maxPlanSteps: 6,
 *   budget: { maxTotalTokens: 50_000 },
 * });
 * const result = await researcher.run('Compare the populations of Paris and Rome.');
 */
export function planAndExecute(options: PlanAndExecuteOptions): PlanAndExecute {
  if (!options?.planner || typeof options.planner.generate !== 'function') {
    throw new ConfigError({ message: 'planAndExecute() needs a planner model: { planner: openaiCompatible(...) }.' });
  }
  if (!options.executor || typeof options.executor.run !== 'function') {
    throw new ConfigError({
      message: 'planAndExecute() needs an executor agent: { executor: new Agent({ model, tools }) }.',
    });
  }
  if (options.maxPlanSteps !== undefined && !(options.maxPlanSteps >= 1)) {
    throw new ConfigError({ message: `maxPlanSteps must be at least 1 (got ${options.maxPlanSteps}).` });
  }
  const run: PlanAndExecute['run'] = (input, runOptions = {}) => runPlan(input, options, runOptions);
  return {
    name: options.name,
    run,
    asTool: (toolOptions) => agentAsTool({ options: { budget: options.budget }, run }, toolOptions),
    stream(input, runOptions = {}) {
      return streamRun(runOptions, (streamed) => runPlan(input, options, { ...runOptions, ...streamed }));
    },
  };
}
