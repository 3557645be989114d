import type { Context } from 'hono';
import type { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';

/** The error codes the API answers with, one per HTTP status it uses. */
export type ApiErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'queue_full'
  | 'internal'
  | 'dependency_unavailable';

const STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  queue_full: 429,
  internal: 500,
  dependency_unavailable: 503,
} as const satisfies Record<ApiErrorCode, ContentfulStatusCode>;

/** The JSON body of every API error: OpenAI's shape, which every client knows how to show. */
export function errorBody(code: ApiErrorCode, message: string) {
  return {
    error: {
      message,
      type: code === 'internal' || code === 'dependency_unavailable' ? 'server_error' : 'invalid_request_error',
      code,
    },
  };
}

/** An error response in the OpenAI shape (`{ error: { message, type, code } }`). */
export function apiError(c: Context, code: ApiErrorCode, message: string, headers?: Record<string, string>): Response {
  return c.json(errorBody(code, message), STATUS[code], headers);
}

/** Headers of a middleware's own error response worth keeping when it is rewritten as JSON. */
const KEPT_HEADERS = ['www-authenticate', 'allow', 'retry-after', 'connection'];

/**
 * Rewrites an `HTTPException` (thrown by a hono middleware such as `bearerAuth` or `bodyLimit`, with
 * a `text/plain` body) as the API's JSON error with the same status, so no error leaves as plain text.
 */
export function httpExceptionError(c: Context, error: HTTPException): Response {
  const original = error.getResponse();
  // A middleware given one of our own answers (bearerAuth's messages are apiError responses).
  if (original.headers.get('content-type')?.startsWith('application/json')) return original;
  const status = original.status as ContentfulStatusCode;
  const code: ApiErrorCode =
    (Object.entries(STATUS).find(([, s]) => s === status)?.[0] as ApiErrorCode | undefined) ??
    (status >= 500 ? 'internal' : 'invalid_request');
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = original.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const message = error.message || original.statusText || `HTTP ${status}`;
  return c.json(errorBody(code, message), status, headers);
}

export type BodyResult<T> = { ok: true; value: T } | { ok: false; response: Response };

/** A zod failure as one line naming the field and the problem. */
function problems(error: z.ZodError): string {
  return z.prettifyError(error).replaceAll('\n', ' ');
}

/**
 * Reads a JSON body and validates it. Malformed JSON and schema failures answer 400 with a message
 * naming the field and the problem.
 */
export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<BodyResult<z.infer<S>>> {
  const text = await c.req.text();
  let json: unknown;
  try {
    json = text.length === 0 ? {} : JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, response: apiError(c, 'invalid_request', `The request body is not valid JSON: ${reason}`) };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, response: apiError(c, 'invalid_request', `Invalid request body: ${problems(parsed.error)}`) };
  }
  return { ok: true, value: parsed.data };
}

/** Validates the query string (one value per parameter); a bad value answers 400 naming the parameter. */
export function readQuery<S extends z.ZodType>(c: Context, schema: S): BodyResult<z.infer<S>> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) {
    return { ok: false, response: apiError(c, 'invalid_request', `Invalid query: ${problems(parsed.error)}`) };
  }
  return { ok: true, value: parsed.data };
}
