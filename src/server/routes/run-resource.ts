import type { Context, Hono } from 'hono';
import { apiError } from '../http/index.js';
import type { RunRecord, RunService } from '../records/index.js';
import type { WorkflowRuns, WorkflowRunView } from '../workflows/index.js';
import { agentRunEvents } from './agent-run-events.js';
import { agentRunFork } from './agent-run-fork.js';
import { agentRunRewind } from './agent-run-rewind.js';
import { agentRunTrace } from './agent-run-trace.js';
import { answerAgentRun } from './run-routes.js';
import { workflowRunHandlers } from './workflow-routes.js';
import { visibleRun } from './workflow-run-steps.js';

/** The kinds of run `/v1/runs/:id` serves. */
export type RunKind = 'agent' | 'workflow';

/** A run the caller may see, found once per request: which kind it is, and its record. */
type FoundRun = { kind: 'agent'; run: RunRecord } | { kind: 'workflow'; run: WorkflowRunView };

/** What one sub-route does for each kind of run (a kind left out has no such sub-route). */
interface SubRoute {
  method: 'get' | 'post';
  path: string;
  agent?: (c: Context, id: string, run: RunRecord) => Response | Promise<Response>;
  workflow?: (c: Context, id: string) => Promise<Response>;
}

/** The 404 for an id that is no run the caller may see. */
function noSuchRun(c: Context, id: string): Response {
  return apiError(c, 'not_found', `No run with id "${id}".`);
}

/**
 * `/v1/runs/:id` and its sub-routes, registered once for every kind of run: each request finds the run
 * once (an agent run of the caller's, else a workflow run they may see) and answers as its kind does.
 * A sub-route its kind does not have (`/approvals` and `/trace` of a workflow run, `/resume` of an agent
 * run) answers 404 naming the kind; an id of neither kind (or another caller's run) answers 404.
 */
export function runResourceRoutes(app: Hono, runs: RunService, workflows?: WorkflowRuns): void {
  const find = async (id: string): Promise<FoundRun | undefined> => {
    const run = await runs.get(id);
    if (run) return { kind: 'agent', run };
    const flow = workflows && (await visibleRun(workflows, id));
    return flow ? { kind: 'workflow', run: flow } : undefined;
  };
  for (const sub of subRoutes(runs, workflows)) {
    app[sub.method](`/v1/runs/:id${sub.path}`, async (c) => {
      const id = c.req.param('id');
      const found = await find(id);
      if (!found) return noSuchRun(c, id);
      if (found.kind === 'agent' && sub.agent) return sub.agent(c, id, found.run);
      if (found.kind === 'workflow' && sub.workflow) return sub.workflow(c, id);
      const kind = found.kind === 'agent' ? 'an agent run' : 'a workflow run';
      return apiError(c, 'not_found', `Run "${id}" is ${kind}, which has no ${sub.path}.`);
    });
  }
}

/** Every sub-route of `/v1/runs/:id`, with what it does for an agent run and for a workflow run. */
function subRoutes(runs: RunService, workflows: WorkflowRuns | undefined): SubRoute[] {
  const workflow = workflows && workflowRunHandlers(workflows);
  return [
    { method: 'get', path: '', agent: (c, _id, run) => c.json({ ...run, kind: 'agent' }), workflow: workflow?.read },
    { method: 'post', path: '/cancel', agent: (c, id) => cancelAgentRun(c, runs, id), workflow: workflow?.cancel },
    { method: 'get', path: '/events', agent: (c, id) => agentRunEvents(c, runs, id), workflow: workflow?.events },
    { method: 'post', path: '/fork', agent: (c, id) => agentRunFork(c, runs, id), workflow: workflow?.fork },
    { method: 'post', path: '/rewind', agent: (c, id) => agentRunRewind(c, runs, id) },
    { method: 'post', path: '/approvals', agent: (c, id) => answerAgentRun(c, runs, id) },
    { method: 'get', path: '/trace', agent: (c, id) => agentRunTrace(c, runs, id) },
    { method: 'post', path: '/resume', workflow: workflow?.resume },
  ];
}

async function cancelAgentRun(c: Context, runs: RunService, id: string): Promise<Response> {
  const run = await runs.cancel(id);
  return run ? c.json({ ...run, kind: 'agent' }) : noSuchRun(c, id);
}
