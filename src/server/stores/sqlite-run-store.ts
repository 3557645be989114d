import type Database from 'better-sqlite3';
import type { Checkpoint } from '../../agent/index.js';
import type { AgentEvent } from '../../core/index.js';
import { openSqlite, retryBusy, sqliteCall } from '../../memory/node.js';
import type {
  IdempotencyClaim,
  PruneRequest,
  PruneResult,
  RunPage,
  RunQuery,
  RunStore,
  RunStoreStats,
  VacuumResult,
} from '../records/index.js';
import { isFinished, type RunPatch, type RunRecord, type ServerRunStatus, type StoredEvent } from '../records/index.js';
import { createRequestCompactor } from './compact-requests.js';
import { packEvents, unpackEvents } from './event-block-codec.js';
import { createRequestCache, rebuildEvents, recordFromRow, type StoredLog } from './rebuild-events.js';
import { PATCH_COLUMNS, patchValue, type RunRow } from './row-codec.js';
import { createStringSharer } from './shared-strings.js';
import { sqliteClaimKey, sqliteReleaseKey } from './sqlite-idempotency.js';
import { sqlitePruneRuns, sqliteQueryRuns, sqliteStats } from './sqlite-run-queries.js';
import { openSchema } from './sqlite-schema.js';
import { CONVERT_AT_OPEN_MAX_BYTES, useIncrementalVacuum, type VacuumOutcome, vacuum } from './sqlite-vacuum.js';
import {
  addCheckpoint,
  addEvent,
  addPatch,
  addRun,
  createWriteBatcher,
  storedStepJson,
  type WriteBatch,
  type WriteBatcher,
} from './write-batch.js';

/** A checkpoint as stored: its steps are rows of `run_steps` (older rows still hold `steps` inline). */
type StoredCheckpoint = Omit<Checkpoint, 'steps'> & { stepCount?: number; steps?: Checkpoint['steps'] };

/** Fewer, larger WAL frames per commit cost fewer writes. */
const PAGE_SIZE = 8192;

/**
 * Most events in one block. A commit of a run that streamed fast holds thousands of events; kept in
 * one block, every page a reader asks for would decode all of them. Bounded, a page of 1000 events
 * decodes a few blocks wherever it starts, so reading a run costs time linear in its size.
 */
const MAX_BLOCK_EVENTS = 256;

/** The events of one run that one commit appends, numbered `first..last`. */
interface EventBlock {
  runId: string;
  first: number;
  last: number;
  /** As stored. */
  events: unknown[];
}

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
  readonly #statements = new Map<string, Database.Statement>();
  /** How many steps of each open run `run_steps` holds, so a checkpoint writes only the new ones. */
  readonly #stepsStored = new Map<string, number>();
  /** Each open run's last model_request, so the next one is stored as what changed. */
  readonly #requests = createRequestCompactor();
  /** Each open run's long strings, so a later copy is stored as a reference. */
  readonly #strings = createStringSharer();
  /** Requests rebuilt by reads, so a reader's next page starts from the last one. */
  readonly #rebuilt = createRequestCache();
  /** The last block decoded that holds more than `MAX_BLOCK_EVENTS` (written by an older version). */
  #oversized?: { key: string; events: AgentEvent[] };
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
        // Rolled back: what is stored of each run's steps is no longer known; the next checkpoints write them all.
        this.#stepsStored.clear();
        this.#requests.reset();
        this.#strings.reset();
        throw error;
      }
    });
  }

  async init(): Promise<void> {}

  createRun(run: RunRecord): Promise<void> {
    return addRun(this.#batcher, run);
  }

  updateRun(id: string, patch: RunPatch): Promise<void> {
    return addPatch(this.#batcher, id, patch);
  }

  async claimIdempotencyKey(claim: IdempotencyClaim, expiredBefore: number): Promise<IdempotencyClaim> {
    return retryBusy(() => sqliteClaimKey(this.#db, claim, expiredBefore), 5_000);
  }

  async releaseIdempotencyKey(claim: Pick<IdempotencyClaim, 'scope' | 'key' | 'runId'>): Promise<void> {
    sqliteReleaseKey(this.#db, claim);
  }

  appendEvent(runId: string, seq: number, event: AgentEvent): Promise<void> {
    return addEvent(this.#batcher, runId, seq, event);
  }

  saveCheckpoint(checkpoint: Checkpoint): Promise<void> {
    return addCheckpoint(this.#batcher, checkpoint);
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    await this.#batcher.flush();
    const row = this.#statement('SELECT * FROM runs WHERE id = ?').get(id) as RunRow | undefined;
    return row ? this.#record(row) : undefined;
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
    return Promise.all(rows.map((row) => this.#record(row)));
  }

  /** A row as a record, its result rebuilt when stored with shared strings. */
  #record(row: RunRow): Promise<RunRecord> {
    return recordFromRow(row, this.#log(row.id));
  }

  /** One run's log as stored, for rebuilding. */
  #log(runId: string): StoredLog {
    return {
      runId,
      at: async (seqs) => this.#storedAt(runId, seqs),
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
    return Promise.all(rows.map((row) => this.#record(row)));
  }

  async queryRuns(query: RunQuery): Promise<RunPage> {
    await this.#batcher.flush();
    return sqliteQueryRuns(this.#db, query);
  }

  async pruneRuns(request: PruneRequest): Promise<PruneResult> {
    await this.#batcher.flush();
    return sqlitePruneRuns(this.#db, request);
  }

  async stats(): Promise<RunStoreStats> {
    await this.#batcher.flush();
    return sqliteStats(this.#db);
  }

  async vacuum(): Promise<VacuumResult> {
    await this.#batcher.flush();
    const before = sqliteStats(this.#db).bytes;
    const started = performance.now();
    const outcome = vacuum(this.#db);
    if (outcome === 'busy') throw new Error('Another process is using the run store; vacuum when it is idle.');
    return { bytesBefore: before, bytesAfter: sqliteStats(this.#db).bytes, ms: performance.now() - started };
  }

  async readEvents(runId: string, afterSeq: number, limit = 1000): Promise<StoredEvent[]> {
    await this.#batcher.flush();
    return rebuildEvents(this.#readStored(runId, afterSeq, limit), this.#log(runId));
  }

  /** Events as stored (model requests compact, strings shared): only the blocks the page needs are decoded. */
  #readStored(runId: string, afterSeq: number, limit: number): StoredEvent[] {
    const rows = this.#statement(
      'SELECT first_seq, events FROM run_event_blocks WHERE run_id = ? AND last_seq > ? ORDER BY last_seq',
    ).iterate(runId, afterSeq) as IterableIterator<{ first_seq: number; events: string | Buffer }>;
    const out: StoredEvent[] = [];
    let last = afterSeq;
    for (const row of rows) {
      const events = this.#decode(runId, row);
      for (let i = Math.max(0, last + 1 - row.first_seq); i < events.length && out.length < limit; i++) {
        const seq = row.first_seq + i;
        if (seq <= last) continue;
        out.push({ seq, event: events[i] });
        last = seq;
      }
      if (out.length >= limit) break;
    }
    return out;
  }

  /**
   * A block's events. A block written before blocks were bounded may hold a whole run: the last such
   * block decoded is kept, so reading it page by page decodes it once, not once per page.
   */
  #decode(runId: string, row: { first_seq: number; events: string | Buffer }): AgentEvent[] {
    const key = `${runId}:${row.first_seq}:${row.events.length}`;
    if (this.#oversized?.key === key) return this.#oversized.events;
    const events = JSON.parse(unpackEvents(row.events)) as AgentEvent[];
    if (events.length > MAX_BLOCK_EVENTS) this.#oversized = { key, events };
    return events;
  }

  /** The stored events at `seqs`, each block that holds some decoded once. */
  #storedAt(runId: string, seqs: readonly number[]): Map<number, AgentEvent> {
    const wanted = [...new Set(seqs)].sort((a, b) => a - b);
    const block = this.#statement(
      'SELECT first_seq, last_seq, events FROM run_event_blocks WHERE run_id = ? AND last_seq >= ? ORDER BY last_seq LIMIT 1',
    );
    const out = new Map<number, AgentEvent>();
    for (let i = 0; i < wanted.length; ) {
      const row = block.get(runId, wanted[i]) as
        | { first_seq: number; last_seq: number; events: string | Buffer }
        | undefined;
      if (!row) break;
      if (row.first_seq > wanted[i]) {
        i++;
        continue;
      }
      const events = this.#decode(runId, row);
      for (; i < wanted.length && wanted[i] <= row.last_seq; i++) {
        const event = events[wanted[i] - row.first_seq];
        if (event !== undefined) out.set(wanted[i], event);
      }
    }
    return out;
  }

  async lastSeq(runId: string): Promise<number> {
    await this.#batcher.flush();
    const row = this.#statement('SELECT MAX(last_seq) AS seq FROM run_event_blocks WHERE run_id = ?').get(runId) as {
      seq: number | null;
    };
    return row.seq ?? 0;
  }

  async loadCheckpoint(runId: string): Promise<Checkpoint | undefined> {
    await this.#batcher.flush();
    const row = this.#statement('SELECT checkpoint FROM run_checkpoints WHERE run_id = ?').get(runId) as
      | { checkpoint: string }
      | undefined;
    if (!row) {
      this.#stepsStored.set(runId, 0);
      return undefined;
    }
    const { stepCount = 0, steps: inline, ...rest } = JSON.parse(row.checkpoint) as StoredCheckpoint;
    if (inline) {
      // Written before steps had their own rows: the next checkpoint writes them all.
      this.#stepsStored.set(runId, 0);
      return { ...rest, steps: inline };
    }
    const steps = (
      this.#statement('SELECT step FROM run_steps WHERE run_id = ? AND idx < ? ORDER BY idx').all(runId, stepCount) as {
        step: string;
      }[]
    ).map((stepRow) => JSON.parse(stepRow.step));
    this.#stepsStored.set(runId, stepCount);
    return { ...rest, steps };
  }

  async close(): Promise<void> {
    await this.#batcher.flush();
    this.#db.close();
  }

  #commit(batch: WriteBatch): void {
    const insertRun = this.#statement(
      'INSERT INTO runs (id, agent, input, history, status, source, created_at, updated_at, result, questions, cancel_requested, owner, caller, forked_from) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const run of batch.creates) {
      this.#strings.start(run.id, run.input);
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
      );
    }
    // Events before patches: a result's strings refer to the events that carry them first.
    if (batch.events.length > 0) this.#appendEvents(batch.events);
    for (const [id, patch] of batch.patches) this.#patch(id, patch);
    for (const checkpoint of batch.checkpoints.values()) this.#saveCheckpoint(checkpoint);
    // An ended run writes no more checkpoints.
    for (const [id, patch] of batch.patches) {
      if (!patch.status || !isFinished(patch.status)) continue;
      this.#stepsStored.delete(id);
      this.#requests.forget(id);
      this.#strings.forget(id);
      // A checkpoint only serves to resume; the ended run's result and events hold what it did.
      this.#statement('DELETE FROM run_checkpoints WHERE run_id = ?').run(id);
      this.#statement('DELETE FROM run_steps WHERE run_id = ?').run(id);
    }
  }

  /**
   * Writes one row per run and run of consecutive sequence numbers (at most `MAX_BLOCK_EVENTS`),
   * packed (`event-block-codec.ts`).
   */
  #appendEvents(events: WriteBatch['events']): void {
    const insert = this.#statement(
      'INSERT OR REPLACE INTO run_event_blocks (run_id, first_seq, last_seq, events) VALUES (?, ?, ?, ?)',
    );
    const write = (block: EventBlock) => insert.run(block.runId, block.first, block.last, packEvents(block.events));
    const open = new Map<string, EventBlock>();
    for (const { runId, seq, event: emitted } of events) {
      const event = this.#strings.encodeEvent(runId, seq, this.#requests.encode(runId, seq, emitted));
      const block = open.get(runId);
      if (block && seq === block.last + 1 && block.events.length < MAX_BLOCK_EVENTS) {
        block.last = seq;
        block.events.push(event);
        continue;
      }
      if (block) write(block);
      open.set(runId, { runId, first: seq, last: seq, events: [event] });
    }
    for (const block of open.values()) write(block);
  }

  /** Writes the steps not stored yet, then the rest of the checkpoint (small: `steps: undefined` leaves them out). */
  #saveCheckpoint(checkpoint: Checkpoint): void {
    const { runId, steps } = checkpoint;
    const insertStep = this.#statement('INSERT OR REPLACE INTO run_steps (run_id, idx, step) VALUES (?, ?, ?)');
    for (let index = Math.min(this.#stepsStored.get(runId) ?? 0, steps.length); index < steps.length; index++) {
      insertStep.run(runId, index, storedStepJson(steps[index]));
    }
    this.#statement(
      `INSERT INTO run_checkpoints (run_id, checkpoint, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (run_id) DO UPDATE SET checkpoint = excluded.checkpoint, updated_at = excluded.updated_at`,
    ).run(runId, JSON.stringify({ ...checkpoint, steps: undefined, stepCount: steps.length }), Date.now());
    this.#stepsStored.set(runId, steps.length);
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
      key === 'result' && patch.result ? this.#strings.encodeResult(id, patch.result) : patch[key];
    this.#statement(`UPDATE runs SET ${sets} WHERE id = ?`).run(
      ...keys.map((key) => patchValue(key, stored(key), true)),
      id,
    );
  }
}
