import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { yieldTurn } from '../../core/index.js';
import { apiError } from '../http/index.js';
import type { RunService, StoredEvent } from '../records/index.js';
import { followEventPages } from '../runs/index.js';

/** An event sequence number as sent in `Last-Event-ID` or `?after=`. */
const Sequence = z
  .string()
  .regex(/^\d{1,15}$/)
  .transform(Number);

const WRITE_BYTES = 256 * 1024;

/** One event as a server-sent event, as hono's `writeSSE` writes it (event JSON holds no line breaks). */
function sseMessage({ seq, event }: StoredEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\nid: ${seq}\n\n`;
}

/**
 * GET /v1/runs/:id/events for an agent run: its events as server-sent events, each with `id:` = its
 * sequence number, from the start or after `Last-Event-ID` (or `?after=`), so a client that reconnects
 * misses nothing. The stream ends after `run_end`.
 */
export function agentRunEvents(c: Context, runs: RunService, id: string): Response {
  const from = c.req.header('Last-Event-ID') ?? c.req.query('after') ?? '0';
  const parsed = Sequence.safeParse(from);
  if (!parsed.success) {
    return apiError(c, 'invalid_request', `Last-Event-ID / after must be an event number (0 or more), not "${from}".`);
  }
  const after = parsed.data;
  return streamSSE(c, async (stream) => {
    let open = true;
    stream.onAbort(() => {
      open = false;
    });
    // Events go out in writes of about WRITE_BYTES (one write per event costs the server more than
    // reading it), and other requests are served between two writes.
    for await (const page of followEventPages(runs, id, after, () => !open)) {
      let text = '';
      for (const stored of page) {
        text += sseMessage(stored);
        if (text.length < WRITE_BYTES) continue;
        await stream.write(text);
        text = '';
        await yieldTurn();
      }
      if (text) await stream.write(text);
    }
  });
}
