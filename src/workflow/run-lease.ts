import { hostname } from 'node:os';
import type { WorkflowStore } from './workflow-types.js';

/** How long a run's lease lasts unless renewed (a third of it between renewals). */
export const DEFAULT_LEASE_MS = 30_000;

const HOST = hostname();
/** When this process started: a holder with this pid and another start is an earlier process (a container restarted). */
const STARTED = Math.round(performance.timeOrigin);
/** Numbers this process's executions: two of one run in this process are two holders. */
let executions = 0;

/** A run held by this execution: its lease is renewed until `release`, and `lost` aborts if another takes it. */
export interface HeldRun {
  lost: AbortSignal;
  release(): Promise<void>;
}

/** The signal of what nobody can abort: one for all of them. */
export const NEVER = new AbortController().signal;
/** What a store without leases gives: nothing held, nothing to lose. */
const FREE: HeldRun = { lost: NEVER, release: async () => {} };

interface HoldContext {
  store: WorkflowStore;
  runId: string;
  leaseMs?: number;
}

/**
 * Takes the run's lease, so one process at a time executes it: another process (a second `serve` on
 * the same PostgreSQL, a restarted one, a resume racing a recovery) gets undefined. A lease whose
 * holder was a process of this host that is gone is taken at once; any other waits until it expires.
 * Stores without leases (a custom one) hold nothing and always succeed.
 */
export async function holdRun(ctx: HoldContext): Promise<HeldRun | undefined> {
  const { store, runId } = ctx;
  if (!store.claimRun) return FREE;
  const holder = `${HOST}:${process.pid}:${STARTED}:${++executions}`;
  const leaseMs = ctx.leaseMs ?? DEFAULT_LEASE_MS;
  // A store only this process sees needs no renewal: its lease excludes a second execution here and never expires.
  const lease = () => ({ holder, until: store.local ? Number.MAX_SAFE_INTEGER : Date.now() + leaseMs });
  if (!(await store.claimRun(runId, lease()))) {
    const seen = await store.leaseOf?.(runId);
    if (!seen || !isDeadHolder(seen.holder) || !(await store.claimRun(runId, lease(), seen))) return undefined;
  }
  if (store.local) return { lost: NEVER, release: () => store.releaseRun?.(runId, holder) ?? Promise.resolve() };
  const controller = new AbortController();
  let renewing = false;
  const timer = setInterval(() => {
    if (renewing) return;
    renewing = true;
    // A store that does not answer leaves the lease to expire; one that gave the run to another stops this one.
    store
      .claimRun?.(runId, lease())
      .then((kept) => {
        if (!kept) controller.abort(new Error(`Run "${runId}" was taken over by another process.`));
      })
      .catch(() => {})
      .finally(() => {
        renewing = false;
      });
  }, leaseMs / 3);
  timer.unref?.();
  return {
    lost: controller.signal,
    async release() {
      clearInterval(timer);
      await store.releaseRun?.(runId, holder);
    },
  };
}

/** Whether `holder` names a process of this host that no longer runs (or an earlier process with this pid). */
export function isDeadHolder(holder: string): boolean {
  const [host, pidText, started] = holder.split(':');
  if (host !== HOST) return false;
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return started !== String(STARTED);
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
