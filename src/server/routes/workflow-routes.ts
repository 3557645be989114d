import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { describeWorkflow, type Workflow, type WorkflowGraph, WorkflowRequestError } from '../../workflow/index.js';
import { idempotencyOf, mayAccess } from '../caller/index.js';
import { apiError, currentScope, NO_RETRY, type RequestScope, readBody, readQuery } from '../http/index.js';
import type { WorkflowRuns, WorkflowRunView, WorkflowStartResult } from '../workflows/index.js';
import {
  ForkWorkflowBody,
  ListWorkflowRunsQuery,
  ResumeWorkflowBody,
  StartWorkflowBody,
  WorkflowWaitQuery,
} from './workflow-wire-schema.js';

/** Where a workflow run is served: the one run resource, and the older path kept as its alias. */
const RUN_PATHS = ['/v1/runs', '/v1/workflows/runs'] as const;

/** How often an event stream reads the store for events other processes wrote. */
const EVENT_POLL_MS = 250;

function scope(): RequestScope {
  const found = currentScope();
  if (!found) throw new Error('The workflow routes were called outside a request: mount them after resolveCaller().');
  return found;
}

/** The 4xx a refused `resume` or `fork` answers, by `WorkflowRequestError.code`. */
function requestRefusal(c: Context, error: WorkflowRequestError): Response {
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

/**
 * Workflow runs over HTTP: list the config's `workflows` and draw one as a graph, start one, read it,
 * resume a suspended one and fork one from a step. The caller owns the runs they start (another principal's run is a 404), and a
 * start or fork with an Idempotency-Key starts at most one run.
 */
export function workflowRoutes(app: Hono, runs: WorkflowRuns): void {
  /** The run if the caller may see it. */
  const visible = async (id: string): Promise<WorkflowRunView | undefined> => {
    const run = await runs.get(id);
    return run && mayAccess(scope().caller, run.owner) ? run : undefined;
  };
  const noRun = (c: Context, id: string) =>
    apiError(c, 'not_found', `No ${c.req.path.startsWith('/v1/workflows/') ? 'workflow ' : ''}run with id "${id}".`);
  /** Answers with the run: 202 while it runs, 200 once it ended or suspended (after waiting, if asked). */
  const answer = async (c: Context, run: WorkflowRunView, wait: boolean) => {
    const now = wait ? ((await runs.wait(run.id)) ?? run) : ((await runs.get(run.id)) ?? run);
    return c.json(now, runs.running(now.id) ? 202 : 200, { Location: `/v1/workflows/runs/${now.id}` });
  };
  const idempotency = async (c: Context) => {
    const key = await idempotencyOf(scope());
    return key === null
      ? apiError(
          c,
          'invalid_request',
          'The Idempotency-Key header must be 1 to 255 visible ASCII characters (a UUID, for example).',
          NO_RETRY,
        )
      : key;
  };

  // A definition does not change while it is served: each graph is described once.
  const graphs = new WeakMap<Workflow, WorkflowGraph>();
  const graphOf = (workflow: Workflow) => {
    const known = graphs.get(workflow);
    if (known) return known;
    const graph = describeWorkflow(workflow);
    graphs.set(workflow, graph);
    return graph;
  };

  app.get('/v1/workflows', (c) => {
    const workflows = runs.names().map((name) => {
      const workflow = runs.definition(name)!;
      return { name, id: workflow.id, definitionHash: workflow.definitionHash };
    });
    return c.json({ workflows });
  });

  // Before `/v1/workflows/:name`, which would take "runs" for a workflow's name.
  app.get('/v1/workflows/runs', async (c) => {
    const query = readQuery(c, ListWorkflowRunsQuery);
    if (!query.ok) return query.response;
    const { caller } = scope();
    // The caller's own runs; an admin's list is everyone's.
    if (!caller.admin && caller.principal === undefined) return c.json({ data: [] });
    const owner = caller.admin ? undefined : caller.principal;
    const data = await runs.list({ ...query.value, ...(owner === undefined ? {} : { owner }) });
    if (!data) return apiError(c, 'not_implemented', 'This workflow store cannot list its runs (it has no listRuns).');
    const last = data.at(-1);
    return c.json({ data, ...(data.length === query.value.limit && last ? { next: last.createdAt } : {}) });
  });

  app.get('/v1/workflows/:name', (c) => {
    const name = c.req.param('name');
    const workflow = runs.definition(name);
    if (!workflow) return apiError(c, 'not_found', `No workflow named "${name}".`);
    return c.json({ name, definitionHash: workflow.definitionHash, graph: graphOf(workflow) });
  });

  app.post('/v1/workflows/:name/runs', async (c) => {
    const query = readQuery(c, WorkflowWaitQuery);
    if (!query.ok) return query.response;
    const body = await readBody(c, StartWorkflowBody);
    if (!body.ok) return body.response;
    const key = await idempotency(c);
    if (key instanceof Response) return key;
    const name = c.req.param('name');
    const found = scope();
    const started = await runs.start(name, body.value.input, { owner: found.caller.principal, idempotency: key });
    if (!started.ok) return startRefusal(c, started, name);
    found.started = [...(found.started ?? []), started.run.id];
    if (started.replayed) c.header('Idempotent-Replayed', 'true');
    return answer(c, started.run, body.value.wait === true || query.value.wait === 'true');
  });

  const streamEvents = async (c: Context) => {
    const id = c.req.param('id') ?? '';
    if (!(await visible(id))) return noRun(c, id);
    const from = c.req.header('Last-Event-ID') ?? c.req.query('after') ?? '0';
    if (!/^\d{1,15}$/.test(from))
      return apiError(
        c,
        'invalid_request',
        `Last-Event-ID / after must be an event number (0 or more), not "${from}".`,
      );
    let after = Number(from);
    return streamSSE(c, async (stream) => {
      let open = true;
      stream.onAbort(() => {
        open = false;
      });
      let last: string | undefined;
      let quiet = 0;
      while (open) {
        // Another process (one that resumed the run, a queue worker) writes events too: poll, woken early by this one's.
        const changed = runs.changed(id, EVENT_POLL_MS);
        const batch = await runs.events(id, after);
        for (const { seq, event } of batch) {
          await stream.writeSSE({ event: event.type, data: JSON.stringify(event), id: String(seq) });
          after = seq;
          last = event.type;
        }
        if (batch.length > 0) quiet = 0;
        // Ends once the run has ended or suspended and its workflow_end is out (a resume is a new stream);
        // a run that ended with no events written (a store that lost them) ends after a few quiet polls.
        const ended = !runs.running(id) && (await runs.status(id)) !== 'running';
        if (ended && (last === 'workflow_end' || ++quiet > 3)) break;
        if (batch.length === 0 || !ended) await changed;
      }
    });
  };

  const cancel = async (c: Context) => {
    const id = c.req.param('id') ?? '';
    if (!(await visible(id))) return noRun(c, id);
    try {
      const run = await runs.cancel(id);
      // 202 while another process still carries it: it stops at its next lease renewal.
      return c.json({ ...run, kind: 'workflow' }, run.status === 'running' ? 202 : 200);
    } catch (error) {
      if (error instanceof WorkflowRequestError) return requestRefusal(c, error);
      throw error;
    }
  };

  // A workflow run is one of the runs at /v1/runs/:id (the agent routes pass its id on); the
  // /v1/workflows/runs/:id paths are kept as aliases.
  for (const base of RUN_PATHS) {
    app.get(`${base}/:id`, async (c) => {
      const run = await visible(c.req.param('id'));
      return run ? c.json({ ...run, kind: 'workflow' }) : noRun(c, c.req.param('id'));
    });
    app.get(`${base}/:id/events`, streamEvents);
    app.post(`${base}/:id/cancel`, cancel);
  }

  app.post('/v1/runs/:id/resume', async (c) => {
    const query = readQuery(c, WorkflowWaitQuery);
    if (!query.ok) return query.response;
    const body = await readBody(c, ResumeWorkflowBody);
    if (!body.ok) return body.response;
    const id = c.req.param('id');
    if (!(await visible(id))) return noRun(c, id);
    const { step, event, payload } = body.value;
    try {
      const run = await runs.resume(id, { step, event, payload });
      return answer(c, run, body.value.wait === true || query.value.wait === 'true');
    } catch (error) {
      if (error instanceof WorkflowRequestError) return requestRefusal(c, error);
      throw error;
    }
  });

  app.post('/v1/runs/:id/fork', async (c) => {
    const query = readQuery(c, WorkflowWaitQuery);
    if (!query.ok) return query.response;
    const body = await readBody(c, ForkWorkflowBody);
    if (!body.ok) return body.response;
    const key = await idempotency(c);
    if (key instanceof Response) return key;
    const id = c.req.param('id');
    if (!(await visible(id))) return noRun(c, id);
    const found = scope();
    const { fromStep, input } = body.value;
    const forked = await runs.fork(id, { fromStep, input }, { owner: found.caller.principal, idempotency: key });
    if (!forked.ok) return startRefusal(c, forked, id);
    found.started = [...(found.started ?? []), forked.run.id];
    if (forked.replayed) c.header('Idempotent-Replayed', 'true');
    return answer(c, forked.run, body.value.wait === true || query.value.wait === 'true');
  });
}
