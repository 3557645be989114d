export { boundHosts, isAllowedHost } from './allowed-hosts.js';
export { bearerTokenAuth, checkApiTokens, envApiTokens } from './bearer-auth.js';
export {
  type CorsConfig,
  type Refuse,
  type SecurityConfig,
  type SecurityOptions,
  securityMiddleware,
  withHeaders,
} from './security-middleware.js';
