import type { AgentEvent } from '../../core/index.js';
import { WorkflowRequestError, type WorkflowResult } from '../../workflow/index.js';
import { onceForKey } from '../runs/index.js';
import type { WorkflowRunView, WorkflowStartContext, WorkflowStartResult } from './workflow-run-types.js';
import { readRun, type WorkflowRunsContext } from './workflow-runs-context.js';

/** Runs `go` in the background and resolves once its request was accepted (its `workflow_start`). */
export async function launch(
  ctx: WorkflowRunsContext,
  id: string,
  go: (onEvent: (event: AgentEvent) => void) => Promise<WorkflowResult>,
): Promise<void> {
  const { options, inFlight, events } = ctx;
  let accepted!: () => void;
  const started = new Promise<void>((resolve) => {
    accepted = resolve;
  });
  const onEvent = (event: AgentEvent) => {
    if (event.type === 'workflow_start') accepted();
    events.record(id, event);
    options.onEvent?.(event);
  };
  const run = go(onEvent);
  const tracked = run.then(
    (result) => result,
    (error: unknown) => {
      if (!(error instanceof WorkflowRequestError)) options.onError?.(error);
      return undefined;
    },
  );
  // What the run's waiters await: the run, then its last events written and the run no longer in
  // flight, so an answer that it suspended is never followed by a resume refused as "still running".
  const finished: Promise<WorkflowResult | undefined> = tracked.then(async (result) => {
    try {
      await events.flush();
    } catch (error) {
      options.onError?.(error);
    }
    if (inFlight.get(id) === finished) inFlight.delete(id);
    events.wake(id);
    return result;
  });
  inFlight.set(id, finished);
  // A refused request (bad payload, changed definition) rejects before the run starts.
  await Promise.race([started, run.then(() => undefined)]);
}

/**
 * Starts a run under a new id, at most once per Idempotency-Key and owner (as `startOnce` does for agent
 * runs), and answers with the run once its request was accepted, or with why it was refused.
 */
export function launchOnce(
  ctx: WorkflowRunsContext,
  context: WorkflowStartContext,
  go: (id: string, onEvent: (event: AgentEvent) => void) => Promise<WorkflowResult>,
): Promise<WorkflowStartResult> {
  return onceForKey<WorkflowStartResult, WorkflowRunView>({
    claims: ctx.options.claims,
    scope: context.owner ?? '',
    idempotency: context.idempotency,
    keyHours: ctx.options.keyHours,
    start: (id) => accepted(ctx, id, () => launch(ctx, id, (onEvent) => go(id, onEvent))),
    find: (id) => readRun(ctx, id),
    replay: (run) => ({ ok: true, run, replayed: true }),
    mismatch: (runId) => ({ ok: false, reason: 'idempotency_mismatch', runId }),
  });
}

async function accepted(ctx: WorkflowRunsContext, id: string, go: () => Promise<void>): Promise<WorkflowStartResult> {
  try {
    await go();
  } catch (error) {
    if (error instanceof WorkflowRequestError) return { ok: false, reason: 'request', error };
    throw error;
  }
  const run = await readRun(ctx, id);
  if (!run) throw new Error(`Workflow run "${id}" was started but is not in the store.`);
  return { ok: true, run };
}

/** The owner a run is started for, as the workflow's run options take it. */
export const ownerOf = (context: WorkflowStartContext) => (context.owner === undefined ? {} : { owner: context.owner });
