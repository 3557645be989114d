import { postgresWorkflowStore, WorkflowRequestError } from '../../workflow/index.js';
import { sqliteWorkflowStore } from '../../workflow/node.js';
import { launch, launchOnce, ownerOf } from './workflow-launch.js';
import { recoverWorkflowRuns, sweepWorkflowRuns } from './workflow-recovery.js';
import type {
  OpenWorkflowRunsOptions,
  WorkflowRuns,
  WorkflowRunsOptions,
  WorkflowRunView,
  WorkflowStartResult,
} from './workflow-run-types.js';
import {
  readRun,
  servedName,
  servedRun,
  type WorkflowRunsContext,
  workflowRunsContext,
} from './workflow-runs-context.js';

/** The workflow runs of a served config, or undefined when it declares none. */
export function openWorkflowRuns(options: OpenWorkflowRunsOptions): WorkflowRuns | undefined {
  const { workflows } = options;
  if (!workflows || Object.keys(workflows).length === 0) return undefined;
  const store = options.pg
    ? postgresWorkflowStore({ connectionString: options.pg, schema: options.pgSchema ?? 'thinkflow' })
    : sqliteWorkflowStore({ dataDir: options.dataDir });
  return workflowRuns({
    workflows,
    store,
    claims: options.claims,
    onError: options.onError,
    dispatch: options.dispatch,
    ownStore: true,
  });
}

/**
 * The workflow runs `thinkflow serve` executes: each one runs in this process, checkpointed in `store`,
 * so a restarted server resumes those left running and a suspended one waits there for its resume.
 */
export function workflowRuns(options: WorkflowRunsOptions): WorkflowRuns {
  const ctx = workflowRunsContext(options);
  const { store, inFlight, events } = ctx;
  const { workflows } = options;
  const sweep = sweepWorkflowRuns(ctx);
  const served = (name: string) => (Object.hasOwn(workflows, name) ? workflows[name] : undefined);
  return {
    names: () => Object.keys(workflows),
    definition: served,
    async start(name, input, context) {
      const workflow = served(name);
      if (!workflow) return { ok: false, reason: 'unknown_workflow' };
      return launchOnce(ctx, context, (id, onEvent) =>
        workflow.run(input, { ...ctx.using, runId: id, onEvent, ...ownerOf(context) }),
      );
    },
    get: (id) => readRun(ctx, id),
    async list({ workflow, ...query }) {
      if (!store.listRuns) return undefined;
      const workflowId = workflow === undefined ? undefined : served(workflow)?.id;
      if (workflow !== undefined && workflowId === undefined) return [];
      const records = await store.listRuns({ ...query, workflowId });
      return records.map((record) => ({ ...record, workflow: servedName(ctx, record) }));
    },
    status: async (id) => (await store.getRun(id))?.status,
    resume: (id, request) => resumeRun(ctx, id, request),
    fork: (id, request, context) => forkRun(ctx, id, request, context),
    cancel: (id) => cancelRun(ctx, id),
    async wait(id) {
      await inFlight.get(id);
      return readRun(ctx, id);
    },
    running: (id) => inFlight.has(id),
    events: (id, afterSeq) => events.read(id, afterSeq),
    changed: (id, timeoutMs) => events.changed(id, timeoutMs),
    recover: () => recoverWorkflowRuns(ctx),
    async close({ timeoutMs = 10_000 } = {}) {
      clearInterval(sweep);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      await Promise.race([Promise.all([...inFlight.values()]), late]);
      clearTimeout(timer);
      await events.flush();
      if (options.ownStore) await store.close?.();
    },
  };
}

const notFound = (id: string) => new WorkflowRequestError(`No workflow run with id "${id}".`, 'not_found');

async function resumeRun(
  ctx: WorkflowRunsContext,
  id: string,
  request: Parameters<WorkflowRuns['resume']>[1],
): Promise<WorkflowRunView> {
  const run = await servedRun(ctx, id);
  if (!run) throw notFound(id);
  if (ctx.inFlight.has(id))
    throw new WorkflowRequestError(`Run "${id}" is running; resume it once it has suspended.`, 'not_suspended');
  await launch(ctx, id, (onEvent) => run.workflow.resume(id, request, { ...ctx.using, onEvent }));
  return (await readRun(ctx, id))!;
}

async function forkRun(
  ctx: WorkflowRunsContext,
  id: string,
  request: Parameters<WorkflowRuns['fork']>[1],
  context: Parameters<WorkflowRuns['fork']>[2],
): Promise<WorkflowStartResult> {
  const run = await servedRun(ctx, id);
  if (!run) return { ok: false, reason: 'request', error: notFound(id) };
  return launchOnce(ctx, context, (newId, onEvent) =>
    run.workflow.fork(id, request, { ...ctx.using, runId: newId, onEvent, ...ownerOf(context) }),
  );
}

async function cancelRun(ctx: WorkflowRunsContext, id: string): Promise<WorkflowRunView> {
  const run = await servedRun(ctx, id);
  if (!run) throw notFound(id);
  await run.workflow.cancel(id, { store: ctx.store });
  await ctx.inFlight.get(id);
  return (await readRun(ctx, id))!;
}
