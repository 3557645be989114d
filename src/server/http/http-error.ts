import type { Context } from 'hono';
import type { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { bodyText } from './limited-body.js';
import { currentScope } from './request-scope.js';

/** The error codes the API answers with, one per HTTP status it uses. */
export type ApiErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'request_timeout'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'expectation_failed'
  | 'queue_full'
  | 'headers_too_large'
  | 'unprocessable'
  | 'run_failed'
  | 'internal'
  | 'not_implemented'
  | 'dependency_unavailable';

const STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  expectation_failed: 417,
  queue_full: 429,
  headers_too_large: 431,
  unprocessable: 422,
  // Not a 5xx: see runFailed.
  run_failed: 400,
  internal: 500,
  not_implemented: 501,
  dependency_unavailable: 503,
} as const satisfies Record<ApiErrorCode, ContentfulStatusCode>;

/** The HTTP status each error code answers with. */
export function errorStatus(code: ApiErrorCode): ContentfulStatusCode {
  return STATUS[code];
}

/** The JSON body of every API error: OpenAI's shape, which every client knows how to show. */
export function errorBody(code: ApiErrorCode, message: string) {
  const type =
    code === 'internal' || code === 'run_failed' || code === 'dependency_unavailable'
      ? 'server_error'
      : 'invalid_request_error';
  return { error: { message, type, code } };
}

/** Tells clients that read it (the openai SDKs) not to retry: a retry would start the run again. */
export const NO_RETRY = { 'x-should-retry': 'false' } as const;

/**
 * The answer when a run this request started did not answer (it failed, hit a limit, was cancelled) or
 * the request failed after starting it: the run took effect, its tools ran, so a client must not send
 * the request again. A 5xx would be the natural status, but the AI SDK retries every 5xx whatever the
 * headers say and LangChain retries everything but 400-407, 409 and 413, so each retry started another
 * run with its side effects. 400 with `x-should-retry: false` is the answer none of them retries (the
 * openai SDK, the AI SDK, @langchain/openai); the message names the run, where the reason is kept.
 */
export function runFailed(c: Context, runId: string, reason: string): Response {
  const message = `Agent run ${runId} did not answer: ${reason.replace(/\.$/, '')}. The run took effect and is not retried; GET /v1/runs/${runId} shows what it did.`;
  return c.json(errorBody('run_failed', message), STATUS.run_failed, NO_RETRY);
}

/**
 * An error response in the OpenAI shape (`{ error: { message, type, code } }`). A 5xx (`internal`,
 * `dependency_unavailable`) of a request that has started a run becomes `run_failed` (see `runFailed`),
 * whichever route answers it: a retry would start the run again.
 */
export function apiError(c: Context, code: ApiErrorCode, message: string, headers?: Record<string, string>): Response {
  const started = STATUS[code] >= 500 ? currentScope()?.started?.at(-1) : undefined;
  if (started) return runFailed(c, started, message);
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

/** How deep a JSON body may nest (objects and arrays); webhook payloads and chat requests nest under 20. */
export const MAX_BODY_DEPTH = 100;

/** The nesting depth of a parsed JSON value, counted without recursion and only up to `cap + 1`. */
export function nestingDepth(value: unknown, cap: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > cap) return deepest;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

export type BodyResult<T> = { ok: true; value: T } | { ok: false; response: Response };

/**
 * A zod failure as one line naming the field and the problem. A value that fits none of several shapes
 * (a union) says what each shape missed, which zod's own text leaves at "Invalid input".
 */
function problems(error: z.ZodError): string {
  return error.issues.map(issueText).join(' ');
}

function issueText(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const at = issue.path.length ? ` at ${issue.path.map(String).join('.')}` : '';
    const shapes = issue.errors.map(
      (branch, i) =>
        `(${i + 1}) ${branch.map((inner) => `${inner.message}${inner.path.length ? ` at ${[...issue.path, ...inner.path].map(String).join('.')}` : ''}`).join(', ')}`,
    );
    return `✖ fits none of the ${issue.errors.length} accepted shapes${at}: ${shapes.join('; ')}`;
  }
  return z.prettifyError(new z.ZodError([issue])).replaceAll('\n', ' ');
}

/**
 * Reads a JSON body and validates it. Malformed JSON and schema failures answer 400 with a message
 * naming the field and the problem.
 */
export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<BodyResult<z.infer<S>>> {
  const text = await bodyText(c.req);
  if (text === undefined) {
    return { ok: false, response: apiError(c, 'invalid_request', 'The request body is not valid UTF-8.') };
  }
  let json: unknown;
  try {
    json = text.length === 0 ? {} : JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, response: apiError(c, 'invalid_request', `The request body is not valid JSON: ${reason}`) };
  }
  // A deep body parses, but every recursive step after it (zod, JSON.stringify, a store) would throw
  // RangeError: answer it here, naming the limit, instead of with an internal error text.
  if (nestingDepth(json, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
    return {
      ok: false,
      response: apiError(c, 'invalid_request', `The request body is nested deeper than ${MAX_BODY_DEPTH} levels.`),
    };
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
