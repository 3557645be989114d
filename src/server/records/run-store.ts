import type { Checkpoint } from '../../agent/index.js';
import type { AgentEvent } from '../../core/index.js';
import type { IdempotencyClaim } from './idempotency-claim.js';
import type { RunJournalEntry } from './run-journal-entry.js';
import type { PruneRequest, PruneResult, RunPage, RunQuery, RunStoreStats, VacuumResult } from './run-listing.js';
import type { RunPatch, RunRecord, ServerRunStatus, StoredEvent } from './run-record.js';

/**
 * Where the server keeps runs, their event logs and their latest checkpoints, so a run survives a
 * crash. Writes are batched: each one resolves once it is committed, and reads see every write made
 * before them. `SqliteRunStore` is the default; `PostgresRunStore` lets API servers and workers share state.
 */
export interface RunStore {
  /** Creates the tables if needed. Idempotent. */
  init(): Promise<void>;
  createRun(run: RunRecord): Promise<void>;
  getRun(id: string): Promise<RunRecord | undefined>;
  /** Where a run stands, without reading its input and result (a reader polls it). */
  getStatus(id: string): Promise<ServerRunStatus | undefined>;
  /** The runs of those ids that exist, in any order (a worker polls all its runs at once). */
  getRuns(ids: readonly string[]): Promise<RunRecord[]>;
  updateRun(id: string, patch: RunPatch): Promise<void>;
  listRuns(filter: { status: readonly ServerRunStatus[]; limit?: number }): Promise<RunRecord[]>;
  /** One page of run summaries, newest first (`GET /v1/runs`, `thinkflow runs list`). */
  queryRuns(query: RunQuery): Promise<RunPage>;
  /**
   * Records an Idempotency-Key claim unless its key is held, atomically across processes sharing the
   * store: resolves with the claim that holds the key (this one, or the first). Claims made before
   * `expiredBefore` no longer hold their key.
   */
  claimIdempotencyKey(claim: IdempotencyClaim, expiredBefore: number): Promise<IdempotencyClaim>;
  /** Drops a claim if `runId` still holds it (the run it was for was refused). */
  releaseIdempotencyKey(claim: Pick<IdempotencyClaim, 'scope' | 'key' | 'runId'>): Promise<void>;
  appendEvent(runId: string, seq: number, event: AgentEvent): Promise<void>;
  /** Events with `seq > afterSeq`, in order. */
  readEvents(runId: string, afterSeq: number, limit?: number): Promise<StoredEvent[]>;
  /** The highest stored `seq` of a run (0 when none). */
  lastSeq(runId: string): Promise<number>;
  saveCheckpoint(checkpoint: Checkpoint): Promise<void>;
  loadCheckpoint(runId: string): Promise<Checkpoint | undefined>;
  /**
   * Writes a record of the run's step journal (`runStoreJournal`), redacted, replacing one of the same
   * key; resolves once it is committed (a kill -9 after that keeps it). Kept until the run is pruned.
   */
  appendJournal(runId: string, entry: RunJournalEntry): Promise<void>;
  /** The run's journal records, in the order they were first written. */
  readJournal(runId: string): Promise<RunJournalEntry[]>;
  /**
   * Deletes (or with `dryRun` counts) one batch of expired runs with their events, steps and
   * checkpoints. Never touches a queued, running or waiting run.
   */
  pruneRuns(request: PruneRequest): Promise<PruneResult>;
  /** Counts and sizes, for `thinkflow runs stats`. */
  stats(): Promise<RunStoreStats>;
  /**
   * Gives space freed by pruning back: SQLite rewrites the file (and converts one made before
   * incremental vacuum); PostgreSQL runs VACUUM on the tables, as autovacuum would.
   */
  vacuum(): Promise<VacuumResult>;
  close(): Promise<void>;
}
