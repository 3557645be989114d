import type { RunRecord, ServerRunStatus } from './run-record.js';
import type { RunStore } from './run-store.js';

/** An unfinished run that no live worker holds: its job may be missing from Redis. */
export interface RecoverableRun {
  id: string;
  agent: string;
  status: ServerRunStatus;
  /** Its outbox row is still there: the job may never have been added. */
  outboxed: boolean;
  createdAt: number;
}

/**
 * What queue mode needs from the shared store beyond a `RunStore`, so that PostgreSQL is the source of
 * truth and Redis only delivers: an outbox written with each run, leases that workers hold on the runs
 * they execute, and a scan for runs nobody holds. `PostgresRunStore` has it.
 */
export interface RunQueueStore {
  /** Stores the run and its intent to be enqueued (an outbox row) in one transaction. */
  createQueuedRun(run: RunRecord): Promise<void>;
  /** Marks the runs' jobs as added: their outbox rows go. Batched with the next commit. */
  markEnqueued(runIds: readonly string[]): Promise<void>;
  /**
   * Takes the run's lease for `ms` unless another owner holds a live one (the database's clock decides,
   * so workers' clocks may differ). False when someone else holds it.
   */
  claimLease(runId: string, owner: string, ms: number): Promise<boolean>;
  /** Extends the leases `owner` holds on these runs by `ms` from now. */
  renewLeases(runIds: readonly string[], owner: string, ms: number): Promise<void>;
  /** Gives the leases back (the run ended, or was handed back to the queue). */
  releaseLeases(runIds: readonly string[], owner: string): Promise<void>;
  /**
   * Calls `work` with the unfinished runs (oldest first, at most `limit`) that hold no live lease,
   * under a lock that one process at a time holds; resolves false when another process holds it.
   */
  withRecoverableRuns(work: (runs: RecoverableRun[]) => Promise<void>, options?: { limit?: number }): Promise<boolean>;
  /**
   * Makes reads and commits wait through an outage (retrying with backoff for as long as it lasts)
   * instead of failing. Workers turn it on: a call's end that could not be written is written later,
   * never lost.
   */
  waitThroughOutages(): void;
  /** Resolves when the database answers; rejects (quickly) when it does not. */
  ping(): Promise<void>;
  /** Called with `true` when the database stops answering and `false` once it answers again. */
  onOutage(listener: (down: boolean) => void): () => void;
}

/** True when the store can back queue mode's outbox, leases and recovery. */
export function isRunQueueStore(store: RunStore): store is RunStore & RunQueueStore {
  const s = store as Partial<RunQueueStore>;
  return typeof s.createQueuedRun === 'function' && typeof s.withRecoverableRuns === 'function';
}
