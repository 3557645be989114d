/** The native API's routes: /v1/runs/:id (one run resource for agent and workflow runs), listings, sessions, hooks, replay, workflows. */
export { ForkRunBody } from './agent-run-fork.js';
export { RewindRunBody } from './agent-run-rewind.js';
export { agentRunOf, continueAnswered, type FollowUp } from './continue-request.js';
export { AddToDatasetBody, CreateDatasetBody, DatasetRowsBody, datasetRoutes, rowFromRun } from './dataset-routes.js';
export { type HookConfig, hookRoutes } from './hook-routes.js';
export { ListRunsQuery, listRunsRoute } from './list-runs-route.js';
export { REPLAY_BODY_TYPES, replayRoute } from './replay-route.js';
export { type RunKind, runResourceRoutes } from './run-resource.js';
export {
  ApprovalBody,
  readAgentRequest,
  StartRunBody,
  startRefusal,
  startRunRoute,
  unknownAgent,
} from './run-routes.js';
export { runScoresRoute } from './run-scores-route.js';
export { sessionRoutes } from './session-routes.js';
export { workflowRoutes } from './workflow-routes.js';
