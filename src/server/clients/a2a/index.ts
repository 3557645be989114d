/** A2A (agent to agent) over JSON-RPC. */
export { a2aRoutes, a2aTooLarge } from './a2a-route.js';
