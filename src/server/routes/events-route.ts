import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { apiError } from '../http-error.js';
import { isFinished } from '../run-record.js';
import type { RunService } from '../run-service.js';

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
    let after = Number.isInteger(from) && from > 0 ? from : 0;
    return streamSSE(c, async (stream) => {
      let open = true;
      stream.onAbort(() => {
        open = false;
      });
      while (open) {
        const events = await runs.events(id, after);
        for (const { seq, event } of events) {
          await stream.writeSSE({ id: String(seq), event: event.type, data: JSON.stringify(event) });
          after = seq;
          if (event.type === 'run_end' && event.runId === id) return;
        }
        if (events.length > 0) continue;
        const run = await runs.get(id);
        // Events are committed before the final status, so an ended run with nothing left to read is done.
        if (!run || isFinished(run.status)) return;
        await runs.changed(id, 1000);
      }
    });
  });
}
