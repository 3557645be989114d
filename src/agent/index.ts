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
// Compaction: the built-in tools the loop offers while a condition holds, and recall_result.
export type { OfferedTool } from './offered-tools.js';
export { type PlanAndExecute, type PlanAndExecuteOptions, type PlanRunOptions, planAndExecute } from './plan/index.js';
export { RECALL_RESULT } from './recall-result.js';
export { createSupervisor, type SupervisorOptions, type SupervisorWorker } from './supervisor.js';
export type { ToolRoutingOptions } from './tool-router.js';
