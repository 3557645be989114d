/** A2A (agent to agent) over JSON-RPC. */
export { a2aRoutes } from './a2a-route.js';
