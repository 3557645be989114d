import type { Context } from 'hono';
import type { z } from 'zod';
import { WorkflowRequestError } from '../../workflow/index.js';
import { idempotencyOf, mayAccess } from '../caller/index.js';
import { apiError, currentScope, NO_RETRY, type RequestScope, readBody, readQuery } from '../http/index.js';
import type { IdempotencyRequest } from '../records/index.js';
import type { WorkflowRuns, WorkflowRunView, WorkflowStartResult } from '../workflows/index.js';
import { WorkflowWaitQuery } from './workflow-wire-schema.js';

/** The request's scope (its caller); the workflow routes are mounted after `resolveCaller()`. */
export function scope(): RequestScope {
  const found = currentScope();
  if (!found) throw new Error('The workflow routes were called outside a request: mount them after resolveCaller().');
  return found;
}

/** The 4xx a refused `resume` or `fork` answers, by `WorkflowRequestError.code`. */
export function requestRefusal(c: Context, error: WorkflowRequestError): Response {
  switch (error.code) {
    case 'not_found':
      return apiError(c, 'not_found', error.message);
    case 'invalid_payload':
    case 'invalid_input':
      return apiError(c, 'invalid_request', error.message, NO_RETRY);
    case 'not_suspended':
    case 'definition_changed':
    case 'running':
      return apiError(c, 'conflict', error.message, NO_RETRY);
  }
}

/** Runs `go`, answering a `WorkflowRequestError` it throws with its 4xx. */
export async function orRefusal(c: Context, go: () => Promise<Response>): Promise<Response> {
  try {
    return await go();
  } catch (error) {
    if (error instanceof WorkflowRequestError) return requestRefusal(c, error);
    throw error;
  }
}

function startRefusal(c: Context, result: Exclude<WorkflowStartResult, { ok: true }>, name: string): Response {
  switch (result.reason) {
    case 'unknown_workflow':
      return apiError(c, 'not_found', `No workflow named "${name}".`);
    case 'idempotency_mismatch':
      return apiError(
        c,
        'unprocessable',
        `This Idempotency-Key was used for another request (run ${result.runId}): send a new key with a new request, and the same body, path and query with a retry.`,
        NO_RETRY,
      );
    case 'request':
      return requestRefusal(c, result.error);
  }
}

/** The run if the caller may see it. */
export async function visibleRun(runs: WorkflowRuns, id: string): Promise<WorkflowRunView | undefined> {
  const run = await runs.get(id);
  return run && mayAccess(scope().caller, run.owner) ? run : undefined;
}

export const noRun = (c: Context, id: string) =>
  apiError(c, 'not_found', `No ${c.req.path.startsWith('/v1/workflows/') ? 'workflow ' : ''}run with id "${id}".`);

/** Answers with the run: 202 while it runs, 200 once it ended or suspended (after waiting, if asked). */
export async function answerRun(c: Context, runs: WorkflowRuns, run: WorkflowRunView, wait: boolean) {
  const now = wait ? ((await runs.wait(run.id)) ?? run) : ((await runs.get(run.id)) ?? run);
  return c.json(now, runs.running(now.id) ? 202 : 200, { Location: `/v1/workflows/runs/${now.id}` });
}

/** A request that starts, resumes or forks a run, read: its body, whether it waits, and its Idempotency-Key. */
export async function readRunRequest<S extends z.ZodType<{ wait?: boolean }>>(
  c: Context,
  schema: S,
  options: { keyed: boolean },
): Promise<
  { ok: true; body: z.infer<S>; wait: boolean; key?: IdempotencyRequest } | { ok: false; response: Response }
> {
  const query = readQuery(c, WorkflowWaitQuery);
  if (!query.ok) return query;
  const body = await readBody(c, schema);
  if (!body.ok) return body;
  const wait = body.value.wait === true || query.value.wait === 'true';
  if (!options.keyed) return { ok: true, body: body.value, wait };
  const key = await idempotencyOf(scope());
  if (key === null) {
    const why = 'The Idempotency-Key header must be 1 to 255 visible ASCII characters (a UUID, for example).';
    return { ok: false, response: apiError(c, 'invalid_request', why, NO_RETRY) };
  }
  return { ok: true, body: body.value, wait, key };
}

/** Answers a start or a fork: the refusal, or the run (kept as the request's, and marked when replayed). */
export function answerStarted(
  c: Context,
  runs: WorkflowRuns,
  started: WorkflowStartResult,
  request: { name: string; wait: boolean },
): Promise<Response> | Response {
  if (!started.ok) return startRefusal(c, started, request.name);
  const found = scope();
  found.started = [...(found.started ?? []), started.run.id];
  if (started.replayed) c.header('Idempotent-Replayed', 'true');
  return answerRun(c, runs, started.run, request.wait);
}
