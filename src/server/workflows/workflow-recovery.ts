import { DEFAULT_LEASE_MS, WorkflowRequestError } from '../../workflow/index.js';
import { launch } from './workflow-launch.js';
import type { WorkflowRunsContext } from './workflow-runs-context.js';

/**
 * Resumes the runs left `running` that nobody carries: at start-up those of a stopped process, and,
 * every `recoveryIntervalMs`, those whose process died (their lease expired). A run another process
 * holds is left to it.
 */
export async function recoverWorkflowRuns(ctx: WorkflowRunsContext): Promise<number> {
  const { store, byId, inFlight, using, options } = ctx;
  const ids = (await store.runIdsWithStatus?.('running')) ?? [];
  let n = 0;
  for (const id of ids) {
    const record = await store.getRun(id);
    const entry = record && byId.get(record.workflowId);
    if (!entry || inFlight.has(id)) continue;
    try {
      await launch(ctx, id, (onEvent) => entry.workflow.resume(id, {}, { ...using, onEvent }));
      n++;
    } catch (error) {
      if (!(error instanceof WorkflowRequestError && error.code === 'running')) options.onError?.(error);
    }
  }
  return n;
}

/** Recovers every `recoveryIntervalMs` (one sweep at a time), when the store has leases to expire. */
export function sweepWorkflowRuns(ctx: WorkflowRunsContext): NodeJS.Timeout | undefined {
  const { options, store } = ctx;
  let sweeping = false;
  const sweepMs = options.recoveryIntervalMs ?? DEFAULT_LEASE_MS;
  const sweep =
    sweepMs > 0 && store.claimRun
      ? setInterval(() => {
          if (sweeping) return;
          sweeping = true;
          recoverWorkflowRuns(ctx)
            .catch((error: unknown) => options.onError?.(error))
            .finally(() => {
              sweeping = false;
            });
        }, sweepMs)
      : undefined;
  sweep?.unref?.();
  return sweep;
}
