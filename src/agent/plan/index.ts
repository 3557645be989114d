export { planAndExecute } from './plan-and-execute.js';
export type { PlanAndExecute, PlanAndExecuteOptions, PlanRunOptions } from './plan-options.js';
