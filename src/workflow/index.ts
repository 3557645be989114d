export {
  type AgentStepOptions,
  agentStep,
  type CreateStepOptions,
  createStep,
  toolStep,
} from './create-step.js';
export {
  type CreateWorkflowOptions,
  createWorkflow,
  type InputOf,
  type OutputOf,
  type StepInputMismatch,
  type StepLike,
  type Workflow,
  type WorkflowBuilder,
} from './create-workflow.js';
export {
  describeWorkflow,
  type GraphNode,
  type GraphStep,
  type SchemaView,
  type WorkflowGraph,
} from './describe-workflow.js';
export { visibleSteps, WorkflowRequestError } from './execute-workflow.js';
export { type PostgresWorkflowStoreOptions, postgresWorkflowStore } from './postgres-workflow-store.js';
export { StepInputError } from './run-leaf.js';
export { DEFAULT_LEASE_MS } from './run-lease.js';
export { runStepJob, type StepJobContext, StepJobError } from './run-step-job.js';
export { type StepDispatch, StepJob, StepJobResult } from './step-job.js';
export { memoryWorkflowStore } from './workflow-store.js';
export type {
  Condition,
  ResumeRequest,
  RunLease,
  StepContext,
  StepRecord,
  SuspendedStep,
  WorkflowEventRecord,
  WorkflowResult,
  WorkflowRunOptions,
  WorkflowRunQuery,
  WorkflowRunRecord,
  WorkflowStatus,
  WorkflowStep,
  WorkflowStore,
} from './workflow-types.js';
