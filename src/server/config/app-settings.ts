import type { AuthConfig } from '../caller/index.js';
import type { ServerLimits } from '../health/index.js';
import type { HookConfig } from '../routes/index.js';
import type { CorsConfig, SecurityConfig } from '../security/index.js';

/**
 * What a config file and `createApp` both set on the HTTP app: who may call it, from which hosts and
 * origins, within which limits, and the webhook triggers it serves.
 */
export interface AppSettings {
  /** Bearer tokens and the application's own caller check (the API is open without them). */
  auth?: AuthConfig;
  /**
   * Host names served besides loopback ones (`allowedHosts`); a request for another answers 403. See
   * docs/server.md#threat-model.
   */
  security?: SecurityConfig;
  /** Origins whose pages may call the server (CORS is off without them). */
  cors?: CorsConfig;
  limits?: ServerLimits;
  /** Webhook triggers: POST /v1/hooks/:name. */
  hooks?: Record<string, HookConfig>;
}
