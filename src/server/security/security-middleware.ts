import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { ConfigError } from '../../core/index.js';
import { type ApiErrorCode, apiError } from '../http/index.js';
import { hostName, isAllowedHost } from './allowed-hosts.js';

/** Which names the server answers to. */
export interface SecurityConfig {
  /**
   * Host names the server answers to besides the loopback names (`localhost`, `*.localhost`,
   * `127.0.0.1`, `[::1]`), e.g. `agents.example.com` behind a proxy, `*.example.com`, or `*` (any:
   * only when a proxy in front checks the name). Also `--allowed-host` on the command line.
   */
  allowedHosts?: string[];
}

/** Cross-origin callers: CORS is off unless `origins` lists some. */
export interface CorsConfig {
  /** Origins (`https://app.example.com`) whose pages may call the API, with preflight answered. */
  origins?: string[];
}

/** Writes a refusal in the surface's own error shape (the API's JSON error; MCP's JSON-RPC error). */
export type Refuse = (c: Context, code: ApiErrorCode, message: string, headers?: Record<string, string>) => Response;

/** Options of `securityMiddleware`. */
export interface SecurityOptions {
  security?: SecurityConfig;
  cors?: CorsConfig;
  /**
   * Body types a route reads besides JSON, by its hono path (`{ '/v1/agents/:name/replay': ['application/x-ndjson'] }`).
   * None of them may be a type a page can send without a preflight (text/plain, a form).
   */
  bodyTypes?: Record<string, readonly string[]>;
  refuse?: Refuse;
}

/** Methods that change nothing, so a foreign page may send them (it cannot read the answer without CORS). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** What a page may send cross-site without a preflight: never a body type a route accepts. */
const SIMPLE_TYPES = new Set(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']);
const HEADERS_ON_EVERY_ANSWER = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Referrer-Policy': 'no-referrer',
} as const;
const FRAME_POLICY = "frame-ancestors 'none'";

/**
 * The one check in front of every route of a server (the runs API, the studio, the OpenAI-compatible
 * routes, hooks, MCP over HTTP), so that no web page can drive it:
 * - a `Host` that is not a loopback name or a configured host answers 403 (DNS rebinding);
 * - a request that changes state (not GET/HEAD/OPTIONS) from a foreign `Origin` answers 403 (`null`
 *   is foreign; the server's own origin and `cors.origins` are not);
 * - a body whose type is not JSON (or a type its route declares) answers 415: a page can post
 *   `text/plain` or a form anywhere without asking, but not `application/json`; so does a compressed
 *   body (`Content-Encoding`), which no route decodes;
 * - CORS answers only for `cors.origins`, preflight included.
 * Every answer also says it may not be framed or sniffed. Mount it first: `app.use('*', securityMiddleware())`.
 */
export function securityMiddleware(options: SecurityOptions = {}): MiddlewareHandler {
  const allowedHosts = options.security?.allowedHosts ?? [];
  const corsOrigins = new Set((options.cors?.origins ?? []).map(corsOrigin));
  const refuse = options.refuse ?? apiError;
  for (const [path, types] of Object.entries(options.bodyTypes ?? {})) {
    const simple = types.find((type) => SIMPLE_TYPES.has(type.toLowerCase()));
    if (simple) throw new Error(`securityMiddleware: ${path} may not accept ${simple}: any web page can send it.`);
  }
  return async (c, next) => {
    const request = c.req.raw;
    const host = requestHost(request);
    if (host === undefined || !isAllowedHost(host, allowedHosts)) {
      return refuse(
        c,
        'forbidden',
        `This server does not answer to the host "${host ?? request.headers.get('host') ?? ''}": it answers to localhost, 127.0.0.1, [::1] and the configured hosts. To reach it under this name, add it to security.allowedHosts in the config or pass --allowed-host.`,
      );
    }
    const origin = request.headers.get('origin');
    const listed = origin !== null && corsOrigins.has(origin);
    if (listed && request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) {
      return preflight(origin, request);
    }
    if (!SAFE_METHODS.has(request.method) && origin !== null && !listed && !isOwnOrigin(origin, request)) {
      return refuse(
        c,
        'forbidden',
        `A page from ${origin === 'null' ? 'an opaque origin ("null")' : `"${origin}"`} may not change anything here. To let that site call this server, list its origin in cors.origins.`,
      );
    }
    const type = bodyType(request);
    if (type !== undefined && !acceptsType(type, options.bodyTypes?.[routePath(c, -1)])) {
      return refuse(
        c,
        'unsupported_media_type',
        `The request body must be JSON: send "Content-Type: application/json"${type ? ` (got "${type}")` : ' (none was sent)'}.`,
      );
    }
    const coding = request.headers.get('content-encoding')?.trim().toLowerCase();
    if (type !== undefined && coding && coding !== 'identity') {
      // The body is never decoded (no gzip bomb to inflate): say so, as RFC 7694 asks, instead of a JSON error.
      return refuse(
        c,
        'unsupported_media_type',
        `The server reads request bodies as they are sent: send the body without Content-Encoding (got "${coding}").`,
        { 'Accept-Encoding': 'identity' },
      );
    }
    await next();
    const headers = answerHeaders({ corsOrigin: listed ? origin : undefined, vary: corsOrigins.size > 0 }, c.res);
    const answered = withHeaders(c.res, headers);
    // Assigning c.res makes hono copy the response: only when its headers could not be set in place.
    if (answered !== c.res) c.res = answered;
  };
}

/** A `cors.origins` entry as browsers send it in `Origin` (`https://app.example.com`), or a ConfigError naming the fix. */
function corsOrigin(entry: string): string {
  const trimmed = entry.trim().replace(/\/$/, '');
  let origin: string | undefined;
  try {
    const url = new URL(trimmed);
    if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
  } catch {
    origin = undefined;
  }
  if (origin === undefined || origin !== trimmed.toLowerCase()) {
    throw new ConfigError({
      message: `cors.origins holds "${entry}", which is not an origin: write the scheme, host and port only, as https://app.example.com or http://localhost:5173.`,
    });
  }
  return origin;
}

/** The host a request is addressed to: the `Host` header and the URL must agree (an absolute-form target may differ). */
function requestHost(request: Request): string | undefined {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(request.url)?.[1] ?? '';
  const fromUrl = hostName(authority);
  const header = request.headers.get('host');
  if (header === null) return fromUrl;
  const name = hostName(header);
  return name === fromUrl ? name : undefined;
}

/** A page served by this server itself (same host and port, http or https behind a proxy). */
function isOwnOrigin(origin: string, request: Request): boolean {
  if (origin === 'null') return false;
  try {
    const url = new URL(origin);
    const host = request.headers.get('host') ?? new URL(request.url).host;
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host.toLowerCase();
  } catch {
    return false;
  }
}

/** The media type of a request that carries a body ('' when it has none declared), else undefined. */
function bodyType(request: Request): string | undefined {
  const length = request.headers.get('content-length');
  const type = request.headers.get('content-type');
  const carries =
    length !== null
      ? length.trim() !== '0'
      : request.headers.has('transfer-encoding') || (type !== null && request.body !== null);
  if (!carries) return undefined;
  return (type ?? '').split(';')[0].trim().toLowerCase();
}

function acceptsType(type: string, extra: readonly string[] | undefined): boolean {
  if (type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type)) return true;
  return extra?.some((t) => t.toLowerCase() === type) ?? false;
}

function preflight(origin: string, request: Request): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...HEADERS_ON_EVERY_ANSWER,
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE',
      'Access-Control-Allow-Headers': request.headers.get('access-control-request-headers') ?? '',
      'Access-Control-Max-Age': '600',
      Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
    },
  });
}

/** The headers added to an answer; with CORS on, every answer varies by `Origin` (a cache must not mix them). */
function answerHeaders(
  { corsOrigin, vary }: { corsOrigin: string | undefined; vary: boolean },
  response: Response,
): Record<string, string> {
  const headers: Record<string, string> = { ...HEADERS_ON_EVERY_ANSWER };
  const policy = response.headers.get('content-security-policy');
  if (!policy?.includes('frame-ancestors'))
    headers['Content-Security-Policy'] = policy ? `${policy}; ${FRAME_POLICY}` : FRAME_POLICY;
  if (vary) headers.Vary = response.headers.get('vary') ? `${response.headers.get('vary')}, Origin` : 'Origin';
  if (corsOrigin) {
    headers['Access-Control-Allow-Origin'] = corsOrigin;
    headers['Access-Control-Expose-Headers'] = 'Location, Retry-After, WWW-Authenticate';
  }
  return headers;
}

/** `response` with `headers` set (copied when its headers are immutable, as a fetched response's are). */
function withHeaders(response: Response, headers: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
    return copy;
  }
}
