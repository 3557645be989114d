import type Database from 'better-sqlite3';
import type { Checkpoint } from '../../agent/index.js';
import { type AgentEvent, redactedJson } from '../../core/index.js';
import { openSqlite, retryBusy, sqliteCall } from '../../memory/node.js';
import type {
  IdempotencyClaim,
  PruneRequest,
  RunJournalEntry,
  RunPatch,
  RunQuery,
  RunRecord,
  RunStore,
  ServerRunStatus,
  StoredEvent,
} from '../records/index.js';
import { openRunMemo } from './open-run-memo.js';
import { createRequestCache, rebuildEvents, recordFromRow, recordsFromRows, type StoredLog } from './rebuild-events.js';
import { PATCH_COLUMNS, patchValue, type RunRow } from './row-codec.js';
import { sqliteEventBlocks } from './sqlite-event-blocks.js';
import { sqliteClaimKey, sqliteReleaseKey } from './sqlite-idempotency.js';
import { sqliteRunQueries as queries, sqliteStats } from './sqlite-run-queries.js';
import { openSchema } from './sqlite-schema.js';
import { CONVERT_AT_OPEN_MAX_BYTES, useIncrementalVacuum, type VacuumOutcome, vacuum } from './sqlite-vacuum.js';
import {
  type BatchedWrites,
  batchedWrites,
  createWriteBatcher,
  storedStepJson,
  type WriteBatch,
  type WriteBatcher,
} from './write-batch.js';

/** Fewer, larger WAL frames per commit cost fewer writes. */
const PAGE_SIZE = 8192;

/**
 * The default run store: one SQLite file, written in one transaction per tick. WAL with
 * `synchronous=NORMAL`: a commit survives the process dying (kill -9) as soon as it returns, since
 * the WAL is in the OS page cache; only a power loss can drop the last commits.
 *
 * @example
 * const store = new SqliteRunStore({ path: '~/.thinkflow/runs.db' });
 */
export class SqliteRunStore implements RunStore {
  readonly #db: Database.Database;
  readonly #batcher: WriteBatcher;
  readonly #writes: BatchedWrites;
  readonly #statements = new Map<string, Database.Statement>();
  /** What is stored of each open run's steps, requests and strings, so a commit writes only what is new. */
  readonly #memo = openRunMemo();
  readonly #blocks = sqliteEventBlocks((sql) => this.#statement(sql));
  /** Requests rebuilt by reads, so a reader's next page starts from the last one. */
  readonly #rebuilt = createRequestCache();
  /** What opening did about incremental vacuum (an old file is converted here when small enough). */
  readonly vacuumAtOpen: VacuumOutcome;

  constructor(options: {
    path: string;
    /** An older file (without incremental vacuum) up to this size is converted at open. Default 64 MiB. */
    vacuumAtOpenMaxBytes?: number;
  }) {
    // Incremental auto-vacuum lets retention hand pruned pages back to the OS.
    const { db, file, busyTimeoutMs } = openSqlite({
      file: options.path,
      pageSize: PAGE_SIZE,
      autoVacuum: 'incremental',
    });
    this.#db = db;
    try {
      sqliteCall(file, 'create the run tables in', () => retryBusy(() => openSchema(db), busyTimeoutMs));
      // The pragma above only applies to new files: an older one needs a VACUUM, done here if small.
      this.vacuumAtOpen = sqliteCall(file, 'convert to incremental vacuum', () =>
        useIncrementalVacuum(db, {
          maxBytes: options.vacuumAtOpenMaxBytes ?? CONVERT_AT_OPEN_MAX_BYTES,
        }),
      );
    } catch (error) {
      db.close();
      throw error;
    }
    const commit = this.#db.transaction((batch: WriteBatch) => this.#commit(batch));
    this.#batcher = createWriteBatcher((batch) => {
      try {
        commit(batch);
      } catch (error) {
        this.#memo.reset();
        throw error;
      }
    });
    this.#writes = batchedWrites(this.#batcher);
  }

  async init(): Promise<void> {}

  createRun(run: RunRecord): Promise<void> {
    return this.#writes.createRun(run);
  }

  updateRun(id: string, patch: RunPatch): Promise<void> {
    return this.#writes.updateRun(id, patch);
  }

  async claimIdempotencyKey(claim: IdempotencyClaim, expiredBefore: number): Promise<IdempotencyClaim> {
    return retryBusy(() => sqliteClaimKey(this.#db, claim, expiredBefore), 5_000);
  }

  async releaseIdempotencyKey(claim: Pick<IdempotencyClaim, 'scope' | 'key' | 'runId'>): Promise<void> {
    sqliteReleaseKey(this.#db, claim);
  }

  appendEvent(runId: string, seq: number, event: AgentEvent): Promise<void> {
    return this.#writes.appendEvent(runId, seq, event);
  }

  saveCheckpoint(checkpoint: Checkpoint): Promise<void> {
    return this.#writes.saveCheckpoint(checkpoint);
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    await this.#batcher.flush();
    const row = this.#statement('SELECT * FROM runs WHERE id = ?').get(id) as RunRow | undefined;
    return row ? recordFromRow(row, this.#log(id)) : undefined;
  }

  async getStatus(id: string): Promise<ServerRunStatus | undefined> {
    await this.#batcher.flush();
    const row = this.#statement('SELECT status FROM runs WHERE id = ?').get(id) as
      | { status: ServerRunStatus }
      | undefined;
    return row?.status;
  }

  async getRuns(ids: readonly string[]): Promise<RunRecord[]> {
    await this.#batcher.flush();
    const statement = this.#statement('SELECT * FROM runs WHERE id = ?');
    const rows = ids.flatMap((id) => {
      const row = statement.get(id) as RunRow | undefined;
      return row ? [row] : [];
    });
    return recordsFromRows(rows, (runId) => this.#log(runId));
  }

  /** One run's log as stored, for rebuilding. */
  #log(runId: string): StoredLog {
    return {
      runId,
      at: async (seqs) => this.#blocks.at(runId, seqs),
      input: async () =>
        (this.#statement('SELECT input FROM runs WHERE id = ?').get(runId) as { input: string } | undefined)?.input,
      requests: this.#rebuilt,
    };
  }

  async listRuns(filter: { status: readonly ServerRunStatus[]; limit?: number }): Promise<RunRecord[]> {
    await this.#batcher.flush();
    const marks = filter.status.map(() => '?').join(',');
    const rows = this.#db
      .prepare(`SELECT * FROM runs WHERE status IN (${marks}) ORDER BY created_at LIMIT ?`)
      .all(...filter.status, filter.limit ?? 10_000) as RunRow[];
    return recordsFromRows(rows, (runId) => this.#log(runId));
  }

  async queryRuns(query: RunQuery) {
    await this.#batcher.flush();
    return queries.queryRuns(this.#db, query);
  }

  async pruneRuns(request: PruneRequest) {
    await this.#batcher.flush();
    return queries.pruneRuns(this.#db, request);
  }

  async stats() {
    await this.#batcher.flush();
    return queries.stats(this.#db);
  }

  async vacuum() {
    await this.#batcher.flush();
    const before = sqliteStats(this.#db).bytes;
    const started = performance.now();
    const outcome = vacuum(this.#db);
    if (outcome === 'busy') throw new Error('Another process is using the run store; vacuum when it is idle.');
    return { bytesBefore: before, bytesAfter: sqliteStats(this.#db).bytes, ms: performance.now() - started };
  }

  async readEvents(runId: string, afterSeq: number, limit = 1000): Promise<StoredEvent[]> {
    await this.#batcher.flush();
    return rebuildEvents(this.#blocks.read(runId, afterSeq, limit), this.#log(runId));
  }

  async lastSeq(runId: string): Promise<number> {
    await this.#batcher.flush();
    return this.#blocks.lastSeq(runId);
  }

  async loadCheckpoint(runId: string): Promise<Checkpoint | undefined> {
    await this.#batcher.flush();
    const row = this.#statement('SELECT checkpoint FROM run_checkpoints WHERE run_id = ?').get(runId) as
      | { checkpoint: string }
      | undefined;
    const steps = this.#statement('SELECT step FROM run_steps WHERE run_id = ? AND idx < ? ORDER BY idx');
    return this.#memo.readCheckpoint(runId, row?.checkpoint, (count) =>
      (steps.all(runId, count) as { step: string }[]).map((stepRow) => stepRow.step),
    );
  }

  /** Written at once, outside the batch: the step waits for it, and nothing else in the batch depends on it. */
  async appendJournal(runId: string, entry: RunJournalEntry): Promise<void> {
    const record = redactedJson(entry.record);
    // The row keeps its place (rowid) when a key is written again: reads come back in first-write order.
    this.#statement(
      `INSERT INTO run_journal (run_id, key, record) VALUES (?, ?, ?)
       ON CONFLICT (run_id, key) DO UPDATE SET record = excluded.record`,
    ).run(runId, entry.key, record);
  }

  async readJournal(runId: string): Promise<RunJournalEntry[]> {
    const rows = this.#statement('SELECT key, record FROM run_journal WHERE run_id = ? ORDER BY rowid').all(runId) as {
      key: string;
      record: string;
    }[];
    return rows.map((row) => ({ key: row.key, record: JSON.parse(row.record) }));
  }

  async close(): Promise<void> {
    await this.#batcher.flush();
    this.#db.close();
  }

  #commit(batch: WriteBatch): void {
    const insertRun = this.#statement(
      'INSERT INTO runs (id, agent, input, history, status, source, created_at, updated_at, result, questions, cancel_requested, owner, caller, forked_from, thread) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const run of batch.creates) {
      this.#memo.strings.start(run.id, run.input);
      insertRun.run(
        run.id,
        run.agent,
        run.input,
        run.history ? JSON.stringify(run.history) : null,
        run.status,
        run.source,
        run.createdAt,
        run.updatedAt,
        run.result ? JSON.stringify(run.result) : null,
        run.questions ? JSON.stringify(run.questions) : null,
        run.cancelRequested ? 1 : 0,
        run.owner ?? null,
        run.caller ? JSON.stringify(run.caller) : null,
        run.forkedFrom ? JSON.stringify(run.forkedFrom) : null,
        run.thread ?? null,
      );
    }
    // Events before patches: a result's strings refer to the events that carry them first.
    const { requests, strings } = this.#memo;
    if (batch.events.length > 0)
      this.#blocks.append(batch.events, (runId, seq, event) =>
        strings.encodeEvent(runId, seq, requests.encode(runId, seq, event)),
      );
    for (const [id, patch] of batch.patches) this.#patch(id, patch);
    for (const checkpoint of batch.checkpoints.values()) this.#saveCheckpoint(checkpoint);
    // A checkpoint only serves to resume; the ended run's result and events hold what it did.
    for (const id of this.#memo.forgetEnded(batch)) {
      this.#statement('DELETE FROM run_checkpoints WHERE run_id = ?').run(id);
      this.#statement('DELETE FROM run_steps WHERE run_id = ?').run(id);
    }
  }

  /** Writes the steps not stored yet, then the rest of the checkpoint (small: `steps: undefined` leaves them out). */
  #saveCheckpoint(checkpoint: Checkpoint): void {
    const { runId, steps } = checkpoint;
    const insertStep = this.#statement('INSERT OR REPLACE INTO run_steps (run_id, idx, step) VALUES (?, ?, ?)');
    for (let index = Math.min(this.#memo.stepsStored.get(runId) ?? 0, steps.length); index < steps.length; index++) {
      insertStep.run(runId, index, storedStepJson(steps[index]));
    }
    this.#statement(
      `INSERT INTO run_checkpoints (run_id, checkpoint, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (run_id) DO UPDATE SET checkpoint = excluded.checkpoint, updated_at = excluded.updated_at`,
    ).run(runId, JSON.stringify({ ...checkpoint, steps: undefined, stepCount: steps.length }), Date.now());
    this.#memo.stepsStored.set(runId, steps.length);
  }

  #statement(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #patch(id: string, patch: RunPatch): void {
    const keys = (Object.keys(patch) as (keyof RunPatch)[]).filter((key) => key in PATCH_COLUMNS);
    if (keys.length === 0) return;
    const sets = keys.map((key) => `${PATCH_COLUMNS[key]} = ?`).join(', ');
    const stored = (key: keyof RunPatch) =>
      key === 'result' && patch.result ? this.#memo.strings.encodeResult(id, patch.result) : patch[key];
    this.#statement(`UPDATE runs SET ${sets} WHERE id = ?`).run(
      ...keys.map((key) => patchValue(key, stored(key), true)),
      id,
    );
  }
}
