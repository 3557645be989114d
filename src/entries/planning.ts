/**
 * `thinkflow/planning`: agents that plan and delegate: plan-and-execute (a planner writes the steps, an
 * executor runs them, the plan is revised on failure) and a supervisor over worker agents. Handoffs,
 * agents as tools and guardrails need no import from here: they are options of `Agent`.
 */
export {
  createSupervisor,
  type PlanAndExecute,
  type PlanAndExecuteOptions,
  type PlanRunOptions,
  planAndExecute,
  type SupervisorOptions,
  type SupervisorWorker,
} from '../agent/index.js';
