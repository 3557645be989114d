export { Agent } from './agent.js';
export type { AgentOptions, Budget, Checkpoint, RunOptions, StepOverrides, StepState } from './agent-options.js';
export { canonicalJson, type StopReason } from './guards/index.js';
export type { NextStep } from './next-step.js';
export { type PlanAndExecute, type PlanAndExecuteOptions, type PlanRunOptions, planAndExecute } from './plan/index.js';
export { createSupervisor, type SupervisorOptions, type SupervisorWorker } from './supervisor.js';
