/** The native API's routes: /v1/runs (one run resource for agent and workflow runs), sessions, hooks, replay. */
export { agentRunOf, continueAnswered, type FollowUp } from './continue-request.js';
export { eventsRoute } from './events-route.js';
export { ForkRunBody, forkRoute } from './fork-route.js';
export { type HookConfig, hookRoutes } from './hook-routes.js';
export { ListRunsQuery, listRunsRoute } from './list-runs-route.js';
export { REPLAY_BODY_TYPES, replayRoute } from './replay-route.js';
export { ApprovalBody, readAgentRequest, runRoutes, StartRunBody, startRefusal, unknownAgent } from './run-routes.js';
export { sessionRoutes } from './session-routes.js';
export { traceRoute } from './trace-route.js';
export { workflowRoutes } from './workflow-routes.js';
