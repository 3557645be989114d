export type { AgentOptions, Budget, RunOptions, StepOverrides, StepState } from './agent-options.js';
