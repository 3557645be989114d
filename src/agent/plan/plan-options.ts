import type { AgentEvent, RunResult } from '../../core/index.js';
import type { Model } from '../../llm/index.js';
import type { Language } from '../../protocols/index.js';
import type { Tool, ToolRegistry } from '../../tools/index.js';
import type { Budget, RunOptions } from '../run/index.js';
import type { AsToolOptions, RunnableAgent } from '../team/index.js';

/** The part of an Agent that runs plan steps (kept structural, so plan/ does not import agent.ts). */
export interface PlanExecutor extends RunnableAgent {
  readonly tools: Pick<ToolRegistry, 'specs'>;
}

/** Options for `planAndExecute()`. */
export interface PlanAndExecuteOptions {
  /** Writes the numbered plan (JSON `{ "steps": [...] }`) and, at the end, the answer from the results. */
  planner: Model;
  /** Runs each plan step as its own ReAct run; its events nest under the planning run. */
  executor: PlanExecutor;
  /** Decides after each step: continue, revise the remaining plan, or finish. Default: the planner. */
  replanner?: Model;
  /** Most plan steps written and executed before the run ends `max_steps`. Default 8. */
  maxPlanSteps?: number;
  /** Tokens over the planner and every executor run, and wall time, for the whole run. */
  budget?: Budget;
  /** Language of the planner's prompts. Default `en`. */
  language?: Language;
  /** Shown in the `run_start` event. */
  name?: string;
}

/** Options for one planning run. */
export type PlanRunOptions = Pick<RunOptions, 'signal' | 'onEvent' | 'runId' | 'parentRunId' | 'budget'>;

/** A plan-and-execute runner: the same `run`/`stream` surface as an Agent. */
export interface PlanAndExecute {
  readonly name: string | undefined;
  /** Plans, executes each step, revises, and resolves with the result; never rejects for model or tool failures. */
  run(input: string, options?: PlanRunOptions): Promise<RunResult>;
  /** The run as a stream of events (the executor's nested in it), ending with the planning run's `run_end`. */
  stream(input: string, options?: PlanRunOptions): AsyncIterable<AgentEvent>;
  /** This runner as a tool (e.g. a supervisor's worker): its events nest under the caller's, within its budget. */
  asTool(options: AsToolOptions): Tool<{ task: string }, string>;
}
