import { Hono } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { redactText } from '../core/index.js';
import type { SessionStore } from '../memory/index.js';
import { studioRoutes } from '../studio/studio-routes.js';
import { closeUnreadBody } from './close-unread-body.js';
import { createLocalRuns } from './create-local-runs.js';
import { apiError, httpExceptionError } from './http-error.js';
import { chatCompletionsRoute } from './routes/chat-completions-route.js';
import { eventsRoute } from './routes/events-route.js';
import { type HookConfig, hookRoutes } from './routes/hook-routes.js';
import { listRunsRoute } from './routes/list-runs-route.js';
import { modelsRoute } from './routes/models-route.js';
import { replayRoute } from './routes/replay-route.js';
import { responsesRoute } from './routes/responses-route.js';
import { runRoutes } from './routes/run-routes.js';
import { sessionRoutes } from './routes/session-routes.js';
import { traceRoute } from './routes/trace-route.js';
import type { RunService } from './run-service.js';
import type { AgentEntry } from './servable-agent.js';
import { DEFAULT_LIMITS, type ServerLimits } from './server-limits.js';
import type { RunStore } from './stores/run-store.js';

/** Who may call the API. */
export interface AuthConfig {
  /** Accepted bearer tokens. With none, the API is open (serve warns). */
  tokens?: string[];
}

export type CreateAppOptions = {
  auth?: AuthConfig;
  limits?: ServerLimits;
  hooks?: Record<string, HookConfig>;
  /**
   * The agents `POST /v1/agents/:name/replay` replays traces against, as they are configured now
   * (default: `agents`). A server whose runs execute elsewhere (`runs`) passes its config's agents here.
   */
  replayAgents?: Record<string, AgentEntry>;
  /** Where `/v1/sessions/:id` conversations are kept; without one those routes are absent. */
  sessions?: SessionStore;
  /** Serve the studio page at /studio (and GET /v1/agents). Default false. */
  studio?: boolean;
  /** Called with each error a handler threw (the client gets a 500 without its details). Default: stderr, redacted. */
  onError?: (error: unknown) => void;
} & (
  | { agents: Record<string, AgentEntry>; store: RunStore; runs?: never }
  | { runs: RunService; agents?: never; store?: never }
);

/** The HTTP API: a `fetch(Request) → Response` handler plus the run service behind it. */
export interface ThinkflowApp {
  fetch(request: Request): Promise<Response>;
  readonly runs: RunService;
  readonly hono: Hono;
}

/**
 * Builds the HTTP API over a run service (or over agents and a store, executing runs in process).
 * It binds no port: `serve()` does, and tests call `app.fetch` directly.
 *
 * @example
 * const app = createApp({ agents: { helper: () => new Agent({ model }) }, store: new SqliteRunStore({ path }) });
 * const response = await app.fetch(new Request('http://x/v1/agents/helper/runs?wait=true', { method: 'POST', body: '{"input":"hi"}' }));
 */
export function createApp(options: CreateAppOptions): ThinkflowApp {
  const runs =
    options.runs ?? createLocalRuns({ agents: options.agents, store: options.store, limits: options.limits });
  const app = new Hono();
  const reportError = (error: unknown) => {
    if (options.onError) options.onError(error);
    else {
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stderr.write(`thinkflow server: a request failed: ${redactText(text)}\n`);
    }
  };
  app.use(closeUnreadBody());
  app.get('/health', (c) => c.json({ ok: true }));
  const tokens = options.auth?.tokens?.filter((token) => token.length > 0) ?? [];
  if (tokens.length > 0) {
    app.use(
      '/v1/*',
      bearerAuth({
        token: tokens,
        noAuthenticationHeader: {
          message: (c) => apiError(c, 'unauthorized', 'Missing bearer token: send "Authorization: Bearer <token>".'),
        },
        invalidAuthenticationHeader: {
          message: (c) =>
            apiError(
              c,
              'invalid_request',
              'The Authorization header must be "Bearer <token>" (one token, no other scheme).',
            ),
        },
        invalidToken: { message: (c) => apiError(c, 'unauthorized', 'The bearer token is not valid.') },
      }),
    );
  }
  app.use(
    '/v1/*',
    bodyLimit({
      maxSize: options.limits?.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes,
      // The rest of the body stays unread: the connection cannot be reused (see closeUnreadBody).
      onError: (c) =>
        apiError(c, 'payload_too_large', 'The request body is larger than the server accepts.', {
          Connection: 'close',
        }),
    }),
  );
  listRunsRoute(app, runs);
  runRoutes(app, runs);
  traceRoute(app, runs);
  if (options.studio) studioRoutes(app, runs);
  const replayable = options.replayAgents ?? options.agents;
  if (replayable) replayRoute(app, replayable);
  if (options.sessions) sessionRoutes(app, { runs, sessions: options.sessions, onError: reportError });
  eventsRoute(app, runs);
  chatCompletionsRoute(app, runs);
  responsesRoute(app, runs);
  modelsRoute(app, runs);
  hookRoutes(app, runs, options.hooks ?? {});
  app.notFound((c) => {
    const allowed = allowedMethods(app, c.req.path);
    if (allowed.length === 0) return apiError(c, 'not_found', `No route ${c.req.method} ${c.req.path}.`);
    const allow = allowed.join(', ');
    return apiError(c, 'method_not_allowed', `${c.req.path} does not answer ${c.req.method}; use ${allow}.`, {
      Allow: allow,
    });
  });
  app.onError((error, c) => {
    if (error instanceof HTTPException) return httpExceptionError(c, error);
    reportError(error);
    return apiError(c, 'internal', 'The server failed to handle the request.');
  });
  return { fetch: (request) => Promise.resolve(app.fetch(request)), runs, hono: app };
}

/** The methods that some route answers on `path` (for a 405 and its `Allow` header). */
function allowedMethods(app: Hono, path: string): string[] {
  const methods = new Set<string>();
  for (const route of app.routes) {
    if (route.method === 'ALL' || route.path.includes('*')) continue;
    const pattern = new RegExp(`^${route.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+')}$`);
    if (pattern.test(path)) methods.add(route.method);
  }
  return [...methods].sort();
}
