import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { apiError } from '../http-error.js';
import { followEvents, type RunService } from '../run-service.js';

/**
 * GET /v1/runs/:id/events: the run's events as server-sent events, each with `id:` = its sequence
 * number, from the start or after `Last-Event-ID` (or `?after=`), so a client that reconnects misses
 * nothing. The stream ends after `run_end`.
 */
export function eventsRoute(app: Hono, runs: RunService): void {
  app.get('/v1/runs/:id/events', async (c) => {
    const id = c.req.param('id');
    if (!(await runs.get(id))) return apiError(c, 'not_found', `No run with id "${id}".`);
    const from = Number(c.req.header('Last-Event-ID') ?? c.req.query('after') ?? 0);
    const after = Number.isInteger(from) && from > 0 ? from : 0;
    return streamSSE(c, async (stream) => {
      let open = true;
      stream.onAbort(() => {
        open = false;
      });
      for await (const { seq, event } of followEvents(runs, id, after, () => !open)) {
        await stream.writeSSE({ id: String(seq), event: event.type, data: JSON.stringify(event) });
      }
    });
  });
}
