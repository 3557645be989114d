/** Workflow runs as the server keeps them: started once, logged, resumed, forked. */
export { createWorkflowEventLog } from './workflow-event-log.js';
export type {
  WorkflowRuns,
  WorkflowRunsOptions,
  WorkflowRunView,
  WorkflowStartContext,
  WorkflowStartResult,
} from './workflow-run-types.js';
export { openWorkflowRuns, workflowRuns } from './workflow-runs.js';
