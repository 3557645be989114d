import type { Context, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { ConfigError, sha256Hex } from '../../core/index.js';
import { apiError, type Caller, runInScope } from '../http/index.js';
import { checkApiTokens, type Refuse } from '../security/index.js';

/** A bearer token and who it names. A plain string is a token whose principal is `tokenPrincipal(token)`. */
export const ApiToken = z.union([
  z.string(),
  z.strictObject({
    token: z.string(),
    principal: z.string().trim().min(1, 'principal must name who the token is'),
    admin: z.boolean().optional(),
  }),
]);
export type ApiToken = z.infer<typeof ApiToken>;

/** The token text of an entry. */
function tokenText(entry: ApiToken): string {
  return typeof entry === 'string' ? entry : entry.token;
}

/** Who may call the API, and who they are. */
export interface AuthConfig {
  /**
   * Accepted bearer tokens. With none (and no `resolvePrincipal`), the API is open (serve warns). A token
   * must be a bearer token (letters, digits, `-._~+/`, `=` at the end): any other is refused when the
   * app is created.
   */
  tokens?: ApiToken[];
  /**
   * Names the caller from the request with the application's own auth (a session cookie, a JWT): the
   * principal, or `{ principal, admin }`, or undefined to answer 401. Consulted when no configured
   * token matched. Errors it throws answer 500 and are reported.
   */
  resolvePrincipal?: (
    request: Request,
  ) =>
    | string
    | { principal: string; admin?: boolean }
    | undefined
    | Promise<string | { principal: string; admin?: boolean } | undefined>;
}

/**
 * The principal of a token given as a plain string: `token:` and the first 16 hex digits of its SHA-256.
 * Stable for the token, never the token itself, and different for each token, so two callers with
 * two plain tokens do not see each other's runs. Rotating the token changes the principal: give tokens
 * a `principal` of their own to keep runs across a rotation.
 */
export function tokenPrincipal(token: string): string {
  return `token:${digest(token).slice(0, 16)}`;
}

/** SHA-256 as hex: the same on every runtime (Web Crypto's digest is async, node:crypto is Node's). */
function digest(text: string): string {
  return sha256Hex(text);
}

/** Whether two digests of equal length are equal, in time that does not depend on where they differ. */
function sameDigest(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i % b.length);
  return diff === 0;
}

interface KnownToken {
  hash: string;
  caller: Caller;
}

/**
 * The configured tokens that are not empty, refusing at start-up an entry that is not a token or
 * `{ token, principal, admin? }`, a token no client could send (`checkApiTokens`: a space, `!`, `:`),
 * and a token listed twice.
 */
export function checkTokenEntries(tokens: readonly unknown[]): ApiToken[] {
  const entries = tokens.map((value, index) => {
    const parsed = ApiToken.safeParse(value);
    if (!parsed.success) {
      throw new ConfigError({
        message: `auth.tokens[${index}] must be a token string or { token, principal, admin? }: ${z.prettifyError(parsed.error).replaceAll('\n', ' ')}`,
      });
    }
    return parsed.data;
  });
  const kept = entries.filter((entry) => tokenText(entry).length > 0);
  checkApiTokens(kept.map(tokenText));
  return kept;
}

/**
 * The configured tokens with their callers. The same token may come from several sources (the config,
 * `THINKFLOW_API_TOKENS`, `--token`): naming the same caller, it is one credential and counts once; one
 * token naming two different callers is refused, since a request could not say which one it is.
 */
function knownTokens(tokens: readonly unknown[]): KnownToken[] {
  const known: KnownToken[] = [];
  checkTokenEntries(tokens).forEach((entry, index) => {
    const token = tokenText(entry);
    const caller: Caller = {
      principal: typeof entry === 'string' ? tokenPrincipal(entry) : entry.principal,
      admin: typeof entry !== 'string' && entry.admin === true,
    };
    const hash = digest(token);
    const before = known.find((other) => other.hash === hash);
    if (!before) {
      known.push({ hash, caller });
      return;
    }
    if (before.caller.principal === caller.principal && before.caller.admin === caller.admin) return;
    throw new ConfigError({
      message: `auth.tokens[${index}] gives a token listed before it to ${describeCaller(caller)}, but it already names ${describeCaller(before.caller)}: give each principal its own token (the same token may be listed twice only for the same principal).`,
    });
  });
  return known;
}

/** A caller as a start-up message names it: the principal (a plain token's is a digest, never the token). */
function describeCaller(caller: Caller): string {
  return `${JSON.stringify(caller.principal)}${caller.admin ? ' (admin)' : ''}`;
}

/** The caller of a presented token, compared in constant time against every configured one. */
function matchToken(known: readonly KnownToken[], presented: string): Caller | undefined {
  const hash = digest(presented);
  let found: Caller | undefined;
  for (const entry of known) if (sameDigest(entry.hash, hash)) found ??= entry.caller;
  return found;
}

/** True when the config asks for callers to authenticate. */
export function authRequired(auth: AuthConfig | undefined): boolean {
  return (auth?.tokens ?? []).some((t) => typeof t === 'object' || t.length > 0) || !!auth?.resolvePrincipal;
}

const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/;
const REALM = 'Bearer realm="thinkflow"';

/**
 * The middleware in front of the API that names the caller: a configured bearer token, else
 * `auth.resolvePrincipal(request)`, else 401 (an open server names everyone the anonymous admin). The
 * rest of the request runs in a scope holding the caller, which the run service reads: what a caller
 * starts is theirs, and what is not theirs is not found (`caller-runs.ts`). MCP over HTTP uses it too,
 * with `refuse` writing its refusals as JSON-RPC errors.
 */
export function resolveCaller(auth: AuthConfig | undefined, refuse: Refuse = apiError): MiddlewareHandler {
  const known = knownTokens(auth?.tokens ?? []);
  // A token no client can send (a space, `!`, `:`) would make every request fail: refuse it now.
  checkApiTokens((auth?.tokens ?? []).map((t) => (typeof t === 'string' ? t : (t as { token: string }).token)));
  const resolve = auth?.resolvePrincipal;
  const open = known.length === 0 && !resolve;
  return async (c, next) => {
    if (open) return runInScope({ caller: { admin: true }, context: c }, next);
    const header = c.req.header('Authorization');
    if (header !== undefined && known.length > 0) {
      const match = BEARER.exec(header);
      if (!match && !resolve) {
        return refuse(
          c,
          'invalid_request',
          'The Authorization header must be "Bearer <token>" (one token, no other scheme).',
          {
            'WWW-Authenticate': `${REALM}, error="invalid_request"`,
          },
        );
      }
      const caller = match ? matchToken(known, match[1]) : undefined;
      if (caller) return runInScope({ caller, context: c }, next);
      if (!resolve) {
        return refuse(c, 'unauthorized', 'The bearer token is not valid.', {
          'WWW-Authenticate': `${REALM}, error="invalid_token"`,
        });
      }
    }
    const resolved = resolve ? await resolve(c.req.raw) : undefined;
    const caller = callerOf(resolved);
    if (caller) return runInScope({ caller, context: c }, next);
    return unauthorized(c, header !== undefined, refuse);
  };
}

function callerOf(resolved: Awaited<ReturnType<NonNullable<AuthConfig['resolvePrincipal']>>>): Caller | undefined {
  if (typeof resolved === 'string') return resolved.trim() === '' ? undefined : { principal: resolved, admin: false };
  if (resolved && typeof resolved.principal === 'string' && resolved.principal.trim() !== '') {
    return { principal: resolved.principal, admin: resolved.admin === true };
  }
  return undefined;
}

function unauthorized(c: Context, presented: boolean, refuse: Refuse): Response {
  return presented
    ? refuse(c, 'unauthorized', 'The credentials are not valid.', {
        'WWW-Authenticate': `${REALM}, error="invalid_token"`,
      })
    : refuse(c, 'unauthorized', 'Missing bearer token: send "Authorization: Bearer <token>".', {
        'WWW-Authenticate': REALM,
      });
}
