import {
  type SuspendedStep,
  visibleSteps,
  type Workflow,
  type WorkflowResult,
  type WorkflowRunRecord,
  type WorkflowStore,
} from '../../workflow/index.js';
import type { WorkflowRunEvents } from './workflow-run-events.js';
import { workflowRunEvents } from './workflow-run-events.js';
import type { WorkflowRunsOptions, WorkflowRunView } from './workflow-run-types.js';

/** What every step of the workflow runs works with. */
export interface WorkflowRunsContext {
  options: WorkflowRunsOptions;
  store: WorkflowStore;
  /** What every run, resume and fork gets: the store, and in queue mode where its steps run. */
  using: Pick<WorkflowRunsOptions, 'store' | 'dispatch'>;
  /** Each served workflow and its config name, by workflow id (the first name a workflow is served under). */
  byId: Map<string, { name: string; workflow: Workflow }>;
  /** The runs this process carries, until they end or suspend. */
  inFlight: Map<string, Promise<WorkflowResult | undefined>>;
  events: WorkflowRunEvents;
}

export function workflowRunsContext(options: WorkflowRunsOptions): WorkflowRunsContext {
  const { store } = options;
  const byId = new Map<string, { name: string; workflow: Workflow }>();
  for (const [name, workflow] of Object.entries(options.workflows))
    if (!byId.has(workflow.id)) byId.set(workflow.id, { name, workflow });
  return {
    options,
    store,
    using: { store, dispatch: options.dispatch },
    byId,
    inFlight: new Map(),
    events: workflowRunEvents(store, options.onError),
  };
}

/** The config name a stored run runs under (its workflow id when no served workflow has that id). */
export const servedName = (ctx: WorkflowRunsContext, record: WorkflowRunRecord) =>
  ctx.byId.get(record.workflowId)?.name ?? record.workflowId;

/** The stored run and the served workflow it runs, when both are known. */
export async function servedRun(ctx: WorkflowRunsContext, id: string) {
  const record = await ctx.store.getRun(id);
  const entry = record && ctx.byId.get(record.workflowId);
  return record && entry ? { record, workflow: entry.workflow } : undefined;
}

/** The run as the HTTP API shows it: its visible steps and the ones it waits on. */
export async function viewRun(ctx: WorkflowRunsContext, record: WorkflowRunRecord): Promise<WorkflowRunView> {
  const steps = visibleSteps(await ctx.store.loadSteps(record.id));
  const suspended: SuspendedStep[] = [];
  for (const [path, step] of Object.entries(steps)) {
    if (step.status === 'suspended')
      suspended.push({
        path,
        stepId: step.stepId,
        payload: step.payload,
        ...(step.event ? { event: step.event } : {}),
      });
  }
  return { ...record, workflow: servedName(ctx, record), steps, suspended };
}

export async function readRun(ctx: WorkflowRunsContext, id: string): Promise<WorkflowRunView | undefined> {
  const record = await ctx.store.getRun(id);
  return record && viewRun(ctx, record);
}
