import type { Context } from 'hono';
import { z } from 'zod';
import { Message } from '../../core/index.js';
import { apiError, NO_RETRY, readBody, readQuery } from '../http/index.js';
import type { RunService } from '../records/index.js';
import { startRefusal } from './run-routes.js';

/** Body of POST /v1/runs/:id/fork for an agent run (a workflow run's fork names a step id instead). */
export const ForkRunBody = z.object({
  /** The step to run again: the steps before it are carried over as they were. */
  fromStep: z.number({ error: 'fromStep must be a step number (0 for the first)' }).int().min(0),
  /** What the model sees at that step instead of the run's own conversation (system prompt included). */
  messages: z.array(Message).min(1, 'messages must hold at least one message').optional(),
  /** Wait for the fork to end before answering (same as `?wait=true`). */
  wait: z.boolean().optional(),
});
export type ForkRunBody = z.infer<typeof ForkRunBody>;

const ForkRunQuery = z.object({
  wait: z.enum(['true', 'false'], { error: 'wait must be true or false' }).optional(),
});

/**
 * POST /v1/runs/:id/fork for an agent run: a new run from step `fromStep` of the caller's run `id`,
 * optionally with edited messages, started as a run is (owner, Idempotency-Key, queue limits).
 */
export async function agentRunFork(c: Context, runs: RunService, id: string): Promise<Response> {
  const query = readQuery(c, ForkRunQuery);
  if (!query.ok) return query.response;
  const body = await readBody(c, ForkRunBody);
  if (!body.ok) return body.response;
  if (!runs.fork) {
    return apiError(c, 'not_implemented', 'This server does not fork agent runs: its run service has no fork.');
  }
  const { fromStep, messages } = body.value;
  const forked = await runs.fork(id, { fromStep, messages });
  if (!forked.ok) {
    switch (forked.reason) {
      case 'unknown_run':
        return apiError(c, 'not_found', `No run with id "${id}".`);
      case 'invalid_fork':
        return apiError(c, 'invalid_request', forked.message, NO_RETRY);
      case 'unknown_agent':
        return apiError(c, 'not_found', `Run "${id}" was made by an agent this server no longer has.`);
      default:
        // Queue full, or an Idempotency-Key refused: answered as a start of the run's agent is.
        return startRefusal(c, forked, (await runs.get(id))?.agent ?? id);
    }
  }
  if (body.value.wait || query.value.wait === 'true') {
    const ended = await runs.wait(forked.run.id, c.req.raw.signal);
    return c.json(ended ?? forked.run, 200);
  }
  return c.json(forked.run, 202, { Location: `/v1/runs/${forked.run.id}` });
}
