import type { MiddlewareHandler } from 'hono';
import { withConnectionClose } from './limited-body.js';

/**
 * Marks `response` `Connection: close` when it answers a request whose body was never read (a 401
 * before the upload, a 404, a 413 over the limit). Node would otherwise say `keep-alive`, then give
 * up draining the unread body after a short while (@hono/node-server: 500 ms or 64 MiB) and drop the
 * connection, and the client's next request on it would be lost. A client told `close` opens a new
 * connection instead.
 */
export function closeIfBodyUnread(request: Request, response: Response): Response {
  const empty = request.body === null || request.headers.get('content-length') === '0';
  if (empty || request.bodyUsed) return response;
  return withConnectionClose(response);
}

/** `closeIfBodyUnread` as hono middleware, for every route of an app. */
export function closeUnreadBody(): MiddlewareHandler {
  return async (c, next) => {
    const request = c.req.raw;
    await next();
    const response = closeIfBodyUnread(request, c.res);
    if (response !== c.res) c.res = response;
  };
}
