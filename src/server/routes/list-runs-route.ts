import type { Hono } from 'hono';
import { z } from 'zod';
import { apiError } from '../http/index.js';
import type { RunService } from '../records/index.js';
import { MAX_PAGE, readCursor, ServerRunStatus } from '../records/index.js';

/** Query parameters of GET /v1/runs. */
export const ListRunsQuery = z.strictObject({
  /** Only runs of this agent. */
  agent: z.string().min(1).optional(),
  /** Only runs of this principal (for an admin; other callers only ever list their own). */
  owner: z.string().min(1).optional(),
  /** Only runs in these statuses, comma-separated (`done,failed`). */
  status: z
    .string()
    .transform((text) => text.split(',').map((part) => part.trim()))
    .pipe(z.array(ServerRunStatus).min(1))
    .optional(),
  /** Runs per page, 1 to 500 (default 50). */
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).optional(),
  /** The `next` cursor of the previous page. */
  cursor: z
    .string()
    .refine((text) => readCursor(text) !== undefined, 'not a cursor this server returned')
    .optional(),
});
export type ListRunsQuery = z.infer<typeof ListRunsQuery>;

/**
 * GET /v1/runs: run summaries (status, agent, created, duration, steps, tokens, cost), newest first,
 * filtered by `agent` and `status`, paged with `limit` and the `cursor` of the previous page's `next`.
 * Unknown or malformed parameters answer 400 naming them.
 */
export function listRunsRoute(app: Hono, runs: RunService): void {
  app.get('/v1/runs', async (c) => {
    const parsed = ListRunsQuery.safeParse(c.req.query());
    if (!parsed.success) {
      const message = `Invalid query: ${z.prettifyError(parsed.error).replaceAll('\n', ' ')}`;
      return apiError(c, 'invalid_request', message);
    }
    const { agent, owner, status, limit, cursor } = parsed.data;
    return c.json(await runs.list({ agent, owner, status, limit, before: cursor }));
  });
}
