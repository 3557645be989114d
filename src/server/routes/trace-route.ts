import type { Hono } from 'hono';
import { apiError } from '../http-error.js';
import type { RunService } from '../run-service.js';

/**
 * GET /v1/runs/:id/trace: the run's events as JSONL, the same lines `thinkflow runs export` and
 * `--trace` write, so `thinkflow trace show` and `thinkflow replay` read the download.
 */
export function traceRoute(app: Hono, runs: RunService): void {
  app.get('/v1/runs/:id/trace', async (c) => {
    const id = c.req.param('id');
    if (!(await runs.get(id))) return apiError(c, 'not_found', `No run with id "${id}".`);
    let body = '';
    for (let after = 0; ; ) {
      const events = await runs.events(id, after);
      if (events.length === 0) break;
      body += events.map((stored) => `${JSON.stringify(stored.event)}\n`).join('');
      after = events[events.length - 1].seq;
    }
    return c.body(body, 200, {
      'Content-Type': 'application/x-ndjson; charset=utf-8',
      'Content-Disposition': `attachment; filename="${id.replace(/[^\w.-]/g, '_')}.jsonl"`,
    });
  });
}
