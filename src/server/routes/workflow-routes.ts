import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { describeWorkflow, type Workflow, type WorkflowGraph } from '../../workflow/index.js';
import { apiError, readQuery } from '../http/index.js';
import type { WorkflowRuns } from '../workflows/index.js';
import { answerRun, answerStarted, noRun, orRefusal, readRunRequest, scope, visibleRun } from './workflow-run-steps.js';
import {
  ForkWorkflowBody,
  ListWorkflowRunsQuery,
  ResumeWorkflowBody,
  StartWorkflowBody,
} from './workflow-wire-schema.js';

/** How often an event stream reads the store for events other processes wrote. */
const EVENT_POLL_MS = 250;

/**
 * Workflow runs over HTTP: list the config's `workflows` and draw one as a graph, start one, and read
 * one at the older `/v1/workflows/runs/:id` paths (`/v1/runs/:id` serves every run: run-resource.ts).
 * The caller owns the runs they start (another principal's run is a 404), and a start or fork with an
 * Idempotency-Key starts at most one run.
 */
export function workflowRoutes(app: Hono, runs: WorkflowRuns): void {
  definitionRoutes(app, runs);
  app.post('/v1/workflows/:name/runs', async (c) => {
    const read = await readRunRequest(c, StartWorkflowBody, { keyed: true });
    if (!read.ok) return read.response;
    const name = c.req.param('name');
    const owner = scope().caller.principal;
    const started = await runs.start(name, read.body.input, { owner, idempotency: read.key });
    return answerStarted(c, runs, started, { name, wait: read.wait });
  });

  // A workflow run is one of the runs at /v1/runs/:id (see run-resource.ts); these older paths stay as its aliases.
  const run = workflowRunHandlers(runs);
  app.get('/v1/workflows/runs/:id', (c) => run.read(c, c.req.param('id')));
  app.get('/v1/workflows/runs/:id/events', (c) => run.events(c, c.req.param('id')));
  app.post('/v1/workflows/runs/:id/cancel', (c) => run.cancel(c, c.req.param('id')));
}

/** What `/v1/runs/:id` answers for a workflow run (each checks that the caller may see it). */
export interface WorkflowRunHandlers {
  read(c: Context, id: string): Promise<Response>;
  events(c: Context, id: string): Promise<Response>;
  cancel(c: Context, id: string): Promise<Response>;
  resume(c: Context, id: string): Promise<Response>;
  fork(c: Context, id: string): Promise<Response>;
}

/** Reading, following, cancelling, resuming and forking one workflow run. */
export function workflowRunHandlers(runs: WorkflowRuns): WorkflowRunHandlers {
  return {
    async read(c, id) {
      const run = await visibleRun(runs, id);
      return run ? c.json({ ...run, kind: 'workflow' }) : noRun(c, id);
    },
    events: (c, id) => streamEvents(c, runs, id),
    cancel: (c, id) => cancel(c, runs, id),
    async resume(c, id) {
      const read = await readRunRequest(c, ResumeWorkflowBody, { keyed: false });
      if (!read.ok) return read.response;
      if (!(await visibleRun(runs, id))) return noRun(c, id);
      const { step, event, payload } = read.body;
      return orRefusal(c, async () => answerRun(c, runs, await runs.resume(id, { step, event, payload }), read.wait));
    },
    async fork(c, id) {
      const read = await readRunRequest(c, ForkWorkflowBody, { keyed: true });
      if (!read.ok) return read.response;
      if (!(await visibleRun(runs, id))) return noRun(c, id);
      const { fromStep, input } = read.body;
      const owner = scope().caller.principal;
      const forked = await runs.fork(id, { fromStep, input }, { owner, idempotency: read.key });
      return answerStarted(c, runs, forked, { name: id, wait: read.wait });
    },
  };
}

/** The served workflows, the caller's workflow runs, and each workflow's graph. */
function definitionRoutes(app: Hono, runs: WorkflowRuns): void {
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
}

/** The run's events as SSE from `Last-Event-ID` (or `?after=`), until it ended or suspended. */
async function streamEvents(c: Context, runs: WorkflowRuns, id: string): Promise<Response> {
  if (!(await visibleRun(runs, id))) return noRun(c, id);
  const from = c.req.header('Last-Event-ID') ?? c.req.query('after') ?? '0';
  if (!/^\d{1,15}$/.test(from))
    return apiError(c, 'invalid_request', `Last-Event-ID / after must be an event number (0 or more), not "${from}".`);
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
}

async function cancel(c: Context, runs: WorkflowRuns, id: string): Promise<Response> {
  if (!(await visibleRun(runs, id))) return noRun(c, id);
  return orRefusal(c, async () => {
    const run = await runs.cancel(id);
    // 202 while another process still carries it: it stops at its next lease renewal.
    return c.json({ ...run, kind: 'workflow' }, run.status === 'running' ? 202 : 200);
  });
}
