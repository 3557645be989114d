import { hostname } from 'node:os';
import type { WorkflowStore } from './workflow-types.js';

/** How long a run's lease lasts unless renewed (a third of it between renewals). */
export const DEFAULT_LEASE_MS = 30_000;

const HOST = hostname();
/** When this process started: a holder with this pid and another start is an earlier process (a container restarted). */
const STARTED = Math.round(performance.timeOrigin);
/** Numbers this process's executions: two of one run in this process are two holders. */
let executions = 0;

/**
 * A run held by this execution: its lease is renewed until `release`. `stop` aborts once a cancel asks
 * (from this process at once, from another at the next renewal) or another process took the run over
 * (then `lost` is true).
 */
export interface HeldRun {
  stop: AbortSignal;
  readonly lost: boolean;
  release(): Promise<void>;
}

/** The runs this process carries, by store: a cancel here aborts them at once. */
const carried = new WeakMap<WorkflowStore, Map<string, AbortController>>();

/** Aborts the run if this process carries it; false if it does not. */
export function cancelCarried(store: WorkflowStore, runId: string): boolean {
  const controller = carried.get(store)?.get(runId);
  controller?.abort(new Error(`Run "${runId}" was cancelled.`));
  return controller !== undefined;
}

/** The signal of what nobody can abort: one for all of them. */
export const NEVER = new AbortController().signal;

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
  const holder = `${HOST}:${process.pid}:${STARTED}:${++executions}`;
  const leaseMs = ctx.leaseMs ?? DEFAULT_LEASE_MS;
  // A store only this process sees needs no renewal: its lease excludes a second execution here and never expires.
  const lease = () => ({ holder, until: store.local ? Number.MAX_SAFE_INTEGER : Date.now() + leaseMs });
  if (store.claimRun && !(await store.claimRun(runId, lease()))) {
    const seen = await store.leaseOf?.(runId);
    if (!seen || !isDeadHolder(seen.holder) || !(await store.claimRun(runId, lease(), seen))) return undefined;
  }
  const stop = new AbortController();
  let runs = carried.get(store);
  if (!runs) {
    runs = new Map();
    carried.set(store, runs);
  }
  runs.set(runId, stop);
  let lost = false;
  let timer: NodeJS.Timeout | undefined;
  if (store.claimRun && !store.local) {
    let renewing = false;
    timer = setInterval(() => {
      if (renewing) return;
      renewing = true;
      // A store that does not answer leaves the lease to expire; one that gave the run to another stops this one.
      const renew = async () => {
        if (!(await store.claimRun?.(runId, lease()))) {
          lost = true;
          return stop.abort(new Error(`Run "${runId}" was taken over by another process.`));
        }
        // A cancel from another process is a flag on the run: heard here at the next renewal.
        if ((await store.getRun(runId))?.cancelRequested) stop.abort(new Error(`Run "${runId}" was cancelled.`));
      };
      renew()
        .catch(() => {})
        .finally(() => {
          renewing = false;
        });
    }, leaseMs / 3);
    timer.unref?.();
  }
  return {
    stop: stop.signal,
    get lost() {
      return lost;
    },
    async release() {
      clearInterval(timer);
      if (runs.get(runId) === stop) runs.delete(runId);
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
