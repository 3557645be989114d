/** Workflow runs as the server keeps them: started once, logged, resumed, forked. */
export { createWorkflowEventLog } from './workflow-event-log.js';
export {
  openWorkflowRuns,
  type WorkflowRuns,
  type WorkflowRunsOptions,
  type WorkflowRunView,
  type WorkflowStartContext,
  type WorkflowStartResult,
  workflowRuns,
} from './workflow-runs.js';
