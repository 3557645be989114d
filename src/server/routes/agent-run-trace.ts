import type { Context } from 'hono';
import { yieldTurn } from '../../core/index.js';
import type { RunService } from '../records/index.js';

/**
 * GET /v1/runs/:id/trace for an agent run: its events as JSONL, the same lines `thinkflow runs export` and
 * `--trace` write, so `thinkflow trace show` and `thinkflow replay` read the download. Sent page by
 * page as the client reads it, so a long log is never held whole in memory nor built in one go.
 */
export function agentRunTrace(c: Context, runs: RunService, id: string): Response {
  const encoder = new TextEncoder();
  let after = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      // Between pages the event loop serves everyone else.
      if (after > 0) await yieldTurn();
      const events = await runs.events(id, after);
      if (events.length === 0) {
        controller.close();
        return;
      }
      after = events[events.length - 1].seq;
      controller.enqueue(encoder.encode(events.map((stored) => `${JSON.stringify(stored.event)}\n`).join('')));
    },
  });
  return c.body(body, 200, {
    'Content-Type': 'application/x-ndjson; charset=utf-8',
    'Content-Disposition': `attachment; filename="${id.replace(/[^\w.-]/g, '_')}.jsonl"`,
  });
}
