// Tool routing and search at scale, and skills.
export type { Skill } from '../skills/index.js';
export { Agent } from './agent.js';
export { type AsToolOptions, agentAsTool } from './agent-as-tool.js';
export type {
  AgentOptions,
  Budget,
  Checkpoint,
  ContextOptions,
  Handoff,
  MemoryOptions,
  RunOptions,
  StepOverrides,
  StepState,
} from './agent-options.js';
export type { EditedPrompt } from './build-messages.js';
export { type ForkMessages, type ForkOptions, type ForkSource, forkCheckpoint } from './fork-run.js';
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
// Compaction: the built-in tool that brings back a cleared or cut result.
export { RECALL_RESULT } from './recall-result.js';
export { createToolRouter, type ToolRouter, type ToolRoutingOptions } from './routing/tool-router.js';
export { createSupervisor, type SupervisorOptions, type SupervisorWorker } from './supervisor.js';
