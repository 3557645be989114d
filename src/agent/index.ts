export type { AgentOptions, Budget, Checkpoint, RunOptions, StepOverrides, StepState } from './agent-options.js';
