import { maybeNodeBuiltin } from '../core/index.js';
import type { WorkflowStore } from './workflow-types.js';

/** How long a run's lease lasts unless renewed (a third of it between renewals). */
export const DEFAULT_LEASE_MS = 30_000;

// A browser or a Worker has no host name or pid (and Deno asks for --allow-sys to read one): its holders
// are told apart by the start time and the count. Read with the first lease, not at import.
let host: string | undefined;
function hostName(): string {
  if (host === undefined) {
    try {
      host = maybeNodeBuiltin('node:os')?.hostname() ?? 'local';
    } catch {
      host = 'local';
    }
  }
  return host;
}
const PID = (globalThis as { process?: { pid?: number } }).process?.pid ?? 0;
/** When this process started: a holder with this pid and another start is an earlier process (a container restarted). */
const STARTED = Math.round(performance.timeOrigin);
/** This process's part of every holder name; a count after it numbers its executions. */
const processPart = () => `${hostName()}:${PID}:${STARTED}:`;
/** Numbers this process's executions: two of one run in this process are two holders. */
let executions = 0;

/**
 * What stops a run: the engine reads `stopped` between nodes, and `signal` only where a step or a wait
 * listens (the signal is then made: most runs never need one).
 */
export interface RunStop {
  readonly stopped: boolean;
  readonly signal: AbortSignal;
}

/** A plain signal as a RunStop: a queue worker's, or a caller's joined with the lease's. */
export class SignalStop implements RunStop {
  constructor(readonly signal: AbortSignal) {}
  get stopped(): boolean {
    return this.signal.aborted;
  }
}

/**
 * A run held by this execution: its lease is renewed until `release`. It stops once a cancel asks
 * (from this process at once, from another at the next renewal) or another process took the run over
 * (then `lost` is true).
 */
export interface HeldRun extends RunStop {
  readonly lost: boolean;
  release(): Promise<void>;
}

/** The runs this process carries, by store: a cancel here stops them at once. */
const carried = new WeakMap<WorkflowStore, Map<string, Hold>>();

/** Stops the run if this process carries it; false if it does not. */
export function cancelCarried(store: WorkflowStore, runId: string): boolean {
  const held = carried.get(store)?.get(runId);
  held?.abort(new Error(`Run "${runId}" was cancelled.`));
  return held !== undefined;
}

/** A held lease (a class: one per run, and cheaper to make than an object of getters and closures). */
class Hold implements HeldRun {
  stopped = false;
  lost = false;
  timer: NodeJS.Timeout | undefined;
  private controller: AbortController | undefined;
  constructor(
    private readonly where: { store: WorkflowStore; runId: string; holder: string; runs: Map<string, Hold> },
  ) {}
  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    return this.controller.signal;
  }
  abort(reason: Error): void {
    this.stopped = true;
    this.controller ??= new AbortController();
    this.controller.abort(reason);
  }
  async release(): Promise<void> {
    const { store, runId, holder, runs } = this.where;
    clearInterval(this.timer);
    if (runs.get(runId) === this) runs.delete(runId);
    await store.releaseRun?.(runId, holder);
  }
}

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
  const holder = processPart() + ++executions;
  const leaseMs = ctx.leaseMs ?? DEFAULT_LEASE_MS;
  // A store only this process sees needs no renewal: its lease excludes a second execution here and never expires.
  const lease = () => ({ holder, until: store.local ? Number.MAX_SAFE_INTEGER : Date.now() + leaseMs });
  if (store.claimRun && !(await store.claimRun(runId, lease()))) {
    const seen = await store.leaseOf?.(runId);
    if (!seen || !isDeadHolder(seen.holder) || !(await store.claimRun(runId, lease(), seen))) return undefined;
  }
  let runs = carried.get(store);
  if (!runs) {
    runs = new Map();
    carried.set(store, runs);
  }
  const held = new Hold({ store, runId, holder, runs });
  runs.set(runId, held);
  if (store.claimRun && !store.local) {
    let renewing = false;
    held.timer = setInterval(() => {
      if (renewing) return;
      renewing = true;
      // A store that does not answer leaves the lease to expire; one that gave the run to another stops this one.
      const renew = async () => {
        if (!(await store.claimRun?.(runId, lease()))) {
          held.lost = true;
          return held.abort(new Error(`Run "${runId}" was taken over by another process.`));
        }
        // A cancel from another process is a flag on the run: heard here at the next renewal.
        if ((await store.getRun(runId))?.cancelRequested) held.abort(new Error(`Run "${runId}" was cancelled.`));
      };
      renew()
        .catch(() => {})
        .finally(() => {
          renewing = false;
        });
    }, leaseMs / 3);
    held.timer.unref?.();
  }
  return held;
}

/** Whether `holder` names a process of this host that no longer runs (or an earlier process with this pid). */
export function isDeadHolder(holder: string): boolean {
  const [holderHost, pidText, started] = holder.split(':');
  if (holderHost !== hostName()) return false;
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === PID) return started !== String(STARTED);
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
