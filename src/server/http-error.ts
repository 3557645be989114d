import type { Context } from 'hono';
import { z } from 'zod';

/** The error codes the API answers with, one per HTTP status it uses. */
export type ApiErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'queue_full'
  | 'internal';

const STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  queue_full: 429,
  internal: 500,
} as const;

/** An error response in the OpenAI shape (`{ error: { message, type, code } }`), which every client knows how to show. */
export function apiError(c: Context, code: ApiErrorCode, message: string, headers?: Record<string, string>): Response {
  return c.json(
    { error: { message, type: code === 'internal' ? 'server_error' : 'invalid_request_error', code } },
    STATUS[code],
    headers,
  );
}

export type BodyResult<T> = { ok: true; value: T } | { ok: false; response: Response };

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
    const message = `Invalid request body: ${z.prettifyError(parsed.error).replaceAll('\n', ' ')}`;
    return { ok: false, response: apiError(c, 'invalid_request', message) };
  }
  return { ok: true, value: parsed.data };
}
