import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { apiError } from '../http-error.js';
import { followEvents, type RunService } from '../run-service.js';

/** An event sequence number as sent in `Last-Event-ID` or `?after=`. */
const Sequence = z
  .string()
  .regex(/^\d{1,15}$/)
  .transform(Number);

/**
 * GET /v1/runs/:id/events: the run's events as server-sent events, each with `id:` = its sequence
 * number, from the start or after `Last-Event-ID` (or `?after=`), so a client that reconnects misses
 * nothing. The stream ends after `run_end`.
 */
export function eventsRoute(app: Hono, runs: RunService): void {
  app.get('/v1/runs/:id/events', async (c) => {
    const id = c.req.param('id');
    if (!(await runs.get(id))) return apiError(c, 'not_found', `No run with id "${id}".`);
    const from = c.req.header('Last-Event-ID') ?? c.req.query('after') ?? '0';
    const parsed = Sequence.safeParse(from);
    if (!parsed.success) {
      return apiError(
        c,
        'invalid_request',
        `Last-Event-ID / after must be an event number (0 or more), not "${from}".`,
      );
    }
    const after = parsed.data;
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
