/** Health: dependency outages (503 with Retry-After, backoff, log throttling), readiness checks and load limits. */
export {
  type Backoff,
  backoffDelay,
  boundedWait,
  createLogThrottle,
  createOutageGate,
  type Dependency,
  DependencyUnavailableError,
  isDependencyUnavailable,
  type LogThrottle,
  retryWhileUnavailable,
  stderrErrors,
} from './outage.js';
export { type Readiness, readinessOf } from './readiness.js';
export { agentLimits, DEFAULT_LIMITS, type ServerLimits } from './server-limits.js';
