import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { apiError, NO_RETRY, readBody, readQuery } from '../http/index.js';
import type { RunService, StartResult } from '../records/index.js';

/** Body of POST /v1/agents/:name/runs. */
export const StartRunBody = z.object({
  input: z.string().min(1, 'input must be a non-empty string'),
  /** Earlier turns of the conversation (the studio's chat sends them), oldest first. */
  history: z
    .array(z.strictObject({ role: z.enum(['system', 'user', 'assistant']), content: z.string() }))
    .max(200, 'history may hold at most 200 turns')
    .optional(),
  /** Wait for the run to end before answering (same as `?wait=true`). */
  wait: z.boolean().optional(),
  /**
   * The conversation thread this run is a turn of (any id the client keeps for its conversation):
   * an agent whose workspace is `scope: thread` gives every run of one thread the same files.
   */
  threadId: z
    .string()
    .regex(/^[\w.:-]{1,128}$/, 'threadId must be 1 to 128 letters, digits, "_", ".", ":" or "-"')
    .optional(),
});
export type StartRunBody = z.infer<typeof StartRunBody>;

/** Body of POST /v1/runs/:id/approvals. */
export const ApprovalBody = z.object({
  /** The question answered; may be left out when the run waits on only one. */
  questionId: z.string().optional(),
  /** Approve the call (default true). */
  approved: z.boolean().default(true),
  /** The answer text, for `ask_user`. */
  answer: z.string().optional(),
});
export type ApprovalBody = z.infer<typeof ApprovalBody>;

/** Query of POST /v1/agents/:name/runs. */
const StartRunQuery = z.object({
  wait: z.enum(['true', 'false'], { error: 'wait must be true or false' }).optional(),
});

/** The 404 for an agent name the service does not serve. */
export function noSuchAgent(c: Parameters<typeof apiError>[0], agent: string): Response {
  return apiError(c, 'not_found', `No agent named "${agent}".`);
}

/** `noSuchAgent` when the service does not serve `agent`; undefined when it does. */
export function unknownAgent(
  c: Parameters<typeof apiError>[0],
  runs: Pick<RunService, 'agentNames'>,
  agent: string,
): Response | undefined {
  return runs.agentNames().includes(agent) ? undefined : noSuchAgent(c, agent);
}

/** A request to one agent, read: the body as its schema says, and the agent named in the path, served here. */
export type AgentRequest<T> = { ok: true; value: T; agent: string } | { ok: false; response: Response };

/**
 * The first step of every route that starts a run of the agent in its path (`:name`): read the body
 * with the route's schema (400 naming what is wrong), then find the agent (404 when it is not served).
 */
export async function readAgentRequest<S extends z.ZodType>(
  c: Context,
  runs: Pick<RunService, 'agentNames'>,
  schema: S,
): Promise<AgentRequest<z.infer<S>>> {
  const body = await readBody(c, schema);
  if (!body.ok) return body;
  const agent = c.req.param('name') ?? '';
  const unknown = unknownAgent(c, runs, agent);
  return unknown ? { ok: false, response: unknown } : { ok: true, value: body.value, agent };
}

/**
 * Maps a refused start to its response: 404, 429 with Retry-After (nothing started, so a retry is safe
 * and clients may make it), or for an Idempotency-Key 400 (malformed) and 422 (used for another request).
 */
export function startRefusal(
  c: Parameters<typeof apiError>[0],
  result: Exclude<StartResult, { ok: true }>,
  agent: string,
): Response {
  switch (result.reason) {
    case 'unknown_agent':
      return noSuchAgent(c, agent);
    case 'queue_full':
      return apiError(c, 'queue_full', `Too many runs waiting for agent "${agent}"; retry later.`, {
        'Retry-After': String(result.retryAfterSeconds),
      });
    case 'invalid_idempotency_key':
      return apiError(
        c,
        'invalid_request',
        'The Idempotency-Key header must be 1 to 255 visible ASCII characters (a UUID, for example).',
        NO_RETRY,
      );
    case 'thread_busy':
      return apiError(c, 'conflict', result.message, NO_RETRY);
    case 'idempotency_mismatch':
      return apiError(
        c,
        'unprocessable',
        `This Idempotency-Key was used for another request (run ${result.runId}): send a new key with a new request, and the same body, path and query with a retry.`,
        NO_RETRY,
      );
  }
}

/** POST /v1/agents/:name/runs: starts a run of the agent (and waits for it with `?wait=true`). */
export function startRunRoute(app: Hono, runs: RunService): void {
  app.post('/v1/agents/:name/runs', async (c) => {
    const query = readQuery(c, StartRunQuery);
    if (!query.ok) return query.response;
    const body = await readBody(c, StartRunBody);
    if (!body.ok) return body.response;
    const agent = c.req.param('name');
    const { input, history, threadId } = body.value;
    const started = await runs.start({ agent, input, history, source: 'api', thread: threadId });
    if (!started.ok) return startRefusal(c, started, agent);
    if (body.value.wait || query.value.wait === 'true') {
      const ended = await runs.wait(started.run.id, c.req.raw.signal);
      return c.json(ended ?? started.run, 200);
    }
    return c.json(started.run, 202, { Location: `/v1/runs/${started.run.id}` });
  });
}

/** POST /v1/runs/:id/approvals for an agent run: answers the question it waits on (an approval or `ask_user`). */
export async function answerAgentRun(c: Context, runs: RunService, id: string): Promise<Response> {
  const body = await readBody(c, ApprovalBody);
  if (!body.ok) return body.response;
  const { questionId, approved, answer } = body.value;
  const outcome = await runs.answer(id, { questionId, approved, text: answer });
  if (outcome === 'not_found') return apiError(c, 'not_found', `No run with id "${id}".`);
  if (outcome === 'no_question') {
    return apiError(
      c,
      'conflict',
      `Run "${id}" is not waiting on ${questionId ? `question "${questionId}"` : 'exactly one question'}.`,
    );
  }
  return c.json(await runs.get(id));
}
