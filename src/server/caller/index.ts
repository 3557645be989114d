/** Who is calling: API tokens to principals, and the runs and sessions one caller may see and start. */
export { callerRuns, IDEMPOTENCY_HEADER, idempotencyOf, mayAccess } from './caller-runs.js';
export { callerSessions, sessionKey } from './caller-sessions.js';
export {
  ApiToken,
  type AuthConfig,
  authRequired,
  checkTokenEntries,
  resolveCaller,
  tokenPrincipal,
} from './resolve-caller.js';
