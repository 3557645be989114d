const GONE_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * Whether `error` only says the client went away (it hung up while sending its body, or before the
 * answer was written): nothing to fix on the server, so it is one log line and not a stack trace.
 */
export function isClientGone(error: unknown, request: Request): boolean {
  if (request.signal.aborted) return true;
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && GONE_CODES.has(code)) return true;
    if (e.name === 'AbortError' || e.message === 'aborted') return true;
  }
  return false;
}
