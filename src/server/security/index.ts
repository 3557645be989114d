export { boundHosts, isAllowedHost } from './allowed-hosts.js';
export { checkApiTokens, envApiTokens } from './api-tokens.js';
export {
  type CorsConfig,
  type Refuse,
  type SecurityConfig,
  type SecurityOptions,
  securityMiddleware,
} from './security-middleware.js';
