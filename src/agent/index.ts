// Tool routing and search at scale, and skills.
export type { Skill } from '../skills/index.js';
export { Agent } from './agent.js';
// Compaction: the built-in tool that brings back a cleared or cut result.
export { RECALL_RESULT } from './calls/index.js';
export { type ForkMessages, type ForkOptions, type ForkSource, forkCheckpoint } from './durable/index.js';
export {
  type GuardedCall,
  type Guardrail,
  type Guardrails,
  type GuardrailVerdict,
  type ModelJudgeOptions,
  modelJudge,
} from './guardrails/index.js';
export { canonicalJson, type StopReason } from './guards/index.js';
export { type PlanAndExecute, type PlanAndExecuteOptions, type PlanRunOptions, planAndExecute } from './plan/index.js';
export { createToolRouter, type ToolRouter, type ToolRoutingOptions } from './routing/index.js';
export type {
  AgentOptions,
  Budget,
  Checkpoint,
  ContextOptions,
  EditedPrompt,
  Handoff,
  MemoryOptions,
  RunOptions,
  StepOverrides,
  StepState,
} from './run/index.js';
export { createSupervisor, type SupervisorOptions, type SupervisorWorker } from './supervisor.js';
export { type AsToolOptions, agentAsTool } from './team/index.js';
