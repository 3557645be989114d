import { type Context, Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { redactText, writeStderr } from '../core/index.js';
import type { SessionStore } from '../memory/index.js';
import { studioRoutes } from '../studio/studio-routes.js';
import { type AuthConfig, authRequired, callerRuns, callerSessions, resolveCaller } from './caller/index.js';
import {
  a2aRoutes,
  a2aTooLarge,
  agUiRoute,
  chatCompletionsRoute,
  modelsRoute,
  responsesRoute,
  uiStreamRoute,
} from './clients/index.js';
import type { AppSettings } from './config/index.js';
import { DEFAULT_LIMITS, DependencyUnavailableError, isDependencyUnavailable, stderrErrors } from './health/index.js';
import {
  apiError,
  closeUnreadBody,
  currentScope,
  httpExceptionError,
  isClientGone,
  limitBody,
  runFailed,
} from './http/index.js';
import type { AgentEntry, EvalStore, RunService, RunStore } from './records/index.js';
import {
  datasetRoutes,
  hookRoutes,
  listRunsRoute,
  REPLAY_BODY_TYPES,
  replayRoute,
  runResourceRoutes,
  runScoresRoute,
  sessionRoutes,
  startRunRoute,
  workflowRoutes,
} from './routes/index.js';
import { createLocalRuns } from './runs/index.js';
import { securityMiddleware } from './security/index.js';
import type { WorkflowRuns } from './workflows/index.js';

export type { AuthConfig };

export type CreateAppOptions = AppSettings & {
  /**
   * The agents `POST /v1/agents/:name/replay` replays traces against, as they are configured now
   * (default: `agents`). A server whose runs execute elsewhere (`runs`) passes its config's agents here.
   */
  replayAgents?: Record<string, AgentEntry>;
  /** Where `/v1/sessions/:id` conversations are kept; without one those routes are absent. */
  sessions?: SessionStore;
  /** The config's workflows, served at /v1/workflows/:name/runs (see docs/workflows.md#service). */
  workflows?: WorkflowRuns;
  /** Where online scores and datasets are kept: serves `/v1/runs/:id/scores` and `/v1/datasets` (absent without one). */
  evals?: EvalStore;
  /** Serve the studio page at /studio (and GET /v1/agents). Default false. */
  studio?: boolean;
  /** Called with each error a handler threw (the client gets a 500 without its details). Default: stderr, redacted. */
  onError?: (error: unknown) => void;
  /** Where one-line notices go (a client that hung up mid-request). Default: stderr. */
  log?: (line: string) => void;
} & (
    | { agents: Record<string, AgentEntry>; store: RunStore; runs?: never }
    | { runs: RunService; agents?: never; store?: never }
  );

/** The HTTP API: a `fetch(Request) → Response` handler plus the run service behind it. */
export interface ThinkflowApp {
  fetch(request: Request): Promise<Response>;
  /** The run service itself, as the host sees it: every run, whoever started it (routes see their caller's). */
  readonly runs: RunService;
  readonly hono: Hono;
}

/**
 * Builds the HTTP API over a run service (or over agents and a store, executing runs in process).
 * It binds no port: `serve()` does, and tests call `app.fetch` directly.
 *
 * @example
 * const app = createApp({ agents: { helper: () => new Agent({ model }) }, store: new SqliteRunStore({ path }) });
 * const response = await app.fetch(
 *   new Request('http://localhost/v1/agents/helper/runs?wait=true', {
 *     method: 'POST',
 *     headers: { 'content-type': 'application/json' },
 *     body: '{"input":"hi"}',
 *   }),
 * );
 */
export function createApp(options: CreateAppOptions): ThinkflowApp {
  const service =
    options.runs ?? createLocalRuns({ agents: options.agents, store: options.store, limits: options.limits });
  const app = new Hono();
  const reportError = requestErrorReporter(options);
  guardRoutes(app, service, options);
  mountRoutes(app, service, options, reportError);
  answerErrors(app, options, reportError);
  return { fetch: (request) => Promise.resolve(app.fetch(request)), runs: service, hono: app };
}

/** Where a handler's error goes: `onError`, else stderr (redacted; an outage once per interval, with a count). */
function requestErrorReporter(options: CreateAppOptions): (error: unknown) => void {
  const outageLog = stderrErrors('thinkflow server: requests failed');
  return (error) => {
    if (options.onError) options.onError(error);
    else if (isDependencyUnavailable(error)) outageLog(error);
    else {
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      writeStderr(`thinkflow server: a request failed: ${redactText(text)}\n`);
    }
  };
}

/** What stands before the routes: security checks, health and readiness, the caller, the body limit. */
function guardRoutes(app: Hono, service: RunService, options: CreateAppOptions): void {
  app.use(closeUnreadBody());
  // Before every route, /health included: Host, Origin and body type (see security-middleware.ts).
  app.use(
    '*',
    securityMiddleware({
      security: options.security,
      cors: options.cors,
      bodyTypes: { '/v1/agents/:name/replay': REPLAY_BODY_TYPES },
    }),
  );
  // Liveness: the process answers. Readiness: so do the services its runs need (send traffic here).
  app.get('/health', (c) => c.json({ ok: true }));
  app.get('/ready', async (c) => {
    const readiness = service.ready ? await service.ready() : { ok: true, checks: {} };
    return c.json(readiness, readiness.ok ? 200 : 503, readiness.ok ? {} : { 'Retry-After': '5' });
  });
  // Names the caller (or answers 401); the routes after it run in the caller's scope. An A2A agent's
  // JSON-RPC endpoint is the API too; its card stays readable, as discovery needs.
  const caller = resolveCaller(options.auth);
  app.use('/v1/*', caller);
  app.use('/a2a/:name', caller);
  const maxBytes = options.limits?.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes;
  const tooLarge = `The request body is larger than the server accepts (${maxBytes} bytes).`;
  app.use('/v1/*', limitBody({ maxBytes, tooLarge: (c) => apiError(c, 'payload_too_large', tooLarge) }));
  // A2A clients read every answer of the endpoint as JSON-RPC.
  app.use('/a2a/:name', limitBody({ maxBytes, tooLarge: (c) => a2aTooLarge(c, tooLarge) }));
}

/** The native API's routes and the client protocols', over the caller's own runs and sessions. */
function mountRoutes(
  app: Hono,
  service: RunService,
  options: CreateAppOptions,
  reportError: (error: unknown) => void,
): void {
  // What every route sees: the caller's own runs, started with their owner and Idempotency-Key.
  const runs = callerRuns(service);
  const sessions = options.sessions && callerSessions(options.sessions);
  listRunsRoute(app, runs);
  startRunRoute(app, runs);
  // /v1/runs/:id and its sub-routes, once for agent and workflow runs.
  runResourceRoutes(app, runs, options.workflows);
  if (options.evals) {
    runScoresRoute(app, runs, options.evals);
    datasetRoutes(app, runs, options.evals);
  }
  if (options.studio) studioRoutes(app, runs);
  const replayable = options.replayAgents ?? options.agents;
  if (replayable) replayRoute(app, replayable);
  if (sessions) sessionRoutes(app, { runs, sessions, onError: reportError });
  chatCompletionsRoute(app, runs);
  responsesRoute(app, runs);
  modelsRoute(app, runs);
  uiStreamRoute(app, { runs, sessions, onError: reportError });
  agUiRoute(app, { runs, sessions, onError: reportError });
  a2aRoutes(app, { runs, sessions, authRequired: authRequired(options.auth), onError: reportError });
  hookRoutes(app, runs, options.hooks ?? {}, reportError);
  if (options.workflows) workflowRoutes(app, options.workflows);
}

/** A path no route answers (404, or 405 naming the methods that do), and a handler's error. */
function answerErrors(app: Hono, options: CreateAppOptions, reportError: (error: unknown) => void): void {
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
    if (isClientGone(error, c.req.raw)) {
      // Nobody reads this answer: one line for the log, not a stack trace.
      const line = `thinkflow server: ${c.req.method} ${c.req.path}: the client closed the connection mid-request.`;
      if (options.log) options.log(line);
      else writeStderr(`${line}\n`);
      return apiError(c, 'invalid_request', 'The client closed the connection before the request was read.');
    }
    reportError(error);
    // Once a run is started, a retry of the request would start another: say so, in a way clients obey.
    const started = currentScope()?.started?.at(-1);
    // An outage, not a bug: the client retries later (unless its run started). One line in the log
    // (serve throttles them).
    if (isDependencyUnavailable(error)) {
      if (started) return runFailed(c, started, 'a service the server needs became unreachable while answering');
      return dependencyUnavailable(c, error);
    }
    if (started) return runFailed(c, started, 'the server failed while answering');
    return apiError(c, 'internal', 'The server failed to handle the request.');
  });
}

/** The 503 of an outage, naming the service and when to retry. */
function dependencyUnavailable(c: Context, error: unknown): Response {
  const dependency = error instanceof DependencyUnavailableError ? error.dependency : undefined;
  const seconds = error instanceof DependencyUnavailableError ? error.retryAfterSeconds : 5;
  const name =
    dependency === 'redis' ? 'Redis' : dependency === 'postgres' ? 'PostgreSQL' : 'A service the server needs';
  return apiError(c, 'dependency_unavailable', `${name} is unreachable right now; retry in ${seconds} s.`, {
    'Retry-After': String(seconds),
  });
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
