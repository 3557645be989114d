import type pg from 'pg';
import type { Checkpoint } from '../../agent/index.js';
import { type AgentEvent, redactedJson } from '../../core/index.js';
import { openSchemaPool, withSchemaLock } from '../../memory/index.js';
import { boundedWait, createOutageGate } from '../health/index.js';
import type {
  IdempotencyClaim,
  PruneRequest,
  RecoverableRun,
  RunJournalEntry,
  RunPatch,
  RunQuery,
  RunQueueStore,
  RunRecord,
  RunStore,
  ServerRunStatus,
  StoredEvent,
} from '../records/index.js';
import { openRunMemo } from './open-run-memo.js';
import { commitStatement, commitValues, isEmptyBatch } from './postgres-commit.js';
import { postgresClaimKey, postgresReleaseKey } from './postgres-idempotency.js';
import { claimLease, leaseDdl, releaseLeases, renewLeases, withRecoverableRuns } from './postgres-run-leases.js';
import { type PostgresDb, postgresRunQueries as queries } from './postgres-run-queries.js';
import { createRequestCache, rebuildEvents, recordFromRow, recordsFromRows, type StoredLog } from './rebuild-events.js';
import type { RunRow } from './row-codec.js';
import {
  addRun,
  type BatchedWrites,
  batchedWrites,
  createWriteBatcher,
  type WriteBatch,
  type WriteBatcher,
} from './write-batch.js';

export interface PostgresRunStoreOptions {
  /** `postgres://user@host:5432/db`. */
  connectionString: string;
  /** Schema holding the tables (created if missing). Default `thinkflow`. */
  schema?: string;
  /** Pool size. Default 10. */
  max?: number;
  /** How long opening a connection may take before it counts as the database being unreachable. Default 5000 ms. */
  connectTimeoutMs?: number;
}

/** The store's reads (and its one write outside the batch, the journal's), by the name each is prepared under: each pooled connection (this store's alone) parses it once. */
const READS = {
  get_run: (s: string) => `SELECT * FROM ${s}.runs WHERE id = $1`,
  get_status: (s: string) => `SELECT status FROM ${s}.runs WHERE id = $1`,
  get_runs: (s: string) => `SELECT * FROM ${s}.runs WHERE id = ANY($1)`,
  events_at: (s: string) => `SELECT seq, event FROM ${s}.run_events WHERE run_id = $1 AND seq = ANY($2)`,
  get_input: (s: string) => `SELECT input FROM ${s}.runs WHERE id = $1`,
  read_events: (s: string) =>
    `SELECT seq, event FROM ${s}.run_events WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
  last_seq: (s: string) => `SELECT MAX(seq) AS seq FROM ${s}.run_events WHERE run_id = $1`,
  load_checkpoint: (s: string) => `SELECT checkpoint FROM ${s}.run_checkpoints WHERE run_id = $1`,
  load_steps: (s: string) => `SELECT step FROM ${s}.run_steps WHERE run_id = $1 AND idx < $2 ORDER BY idx`,
  read_journal: (s: string) => `SELECT key, record FROM ${s}.run_journal WHERE run_id = $1 ORDER BY seq`,
  append_journal: (s: string) =>
    `INSERT INTO ${s}.run_journal (run_id, key, record) VALUES ($1, $2, $3)
     ON CONFLICT (run_id, key) DO UPDATE SET record = excluded.record`,
};

/**
 * A run store in PostgreSQL, shared by API servers and `thinkflow worker` processes when runs are
 * scaled out on a queue. Writes are batched: each tick's writes commit as one statement (one round trip).
 *
 * @example
 * const store = new PostgresRunStore({ connectionString: 'postgres://127.0.0.1:5432/thinkflow' });
 * await store.init();
 */
export class PostgresRunStore implements RunStore, RunQueueStore {
  readonly #pool: pg.Pool;
  readonly #schema: string;
  /** What the listing, retention and size queries run against. */
  readonly #db: PostgresDb;
  readonly #batcher: WriteBatcher;
  readonly #writes: BatchedWrites;
  readonly #commitText: string;
  /** What is stored of each open run's steps, requests and strings, so a commit writes only what is new. */
  readonly #memo = openRunMemo();
  /** Requests rebuilt by reads, so a reader's next page starts from the last one. */
  readonly #rebuilt = createRequestCache();
  /** Workers wait through outages (retrying); API servers fail at once, and answer 503. */
  readonly #outage = createOutageGate({ dependency: 'postgres' });

  constructor(options: PostgresRunStoreOptions) {
    // pg loads here, on first use: it is an optional peer dependency.
    const { pool, schema } = openSchemaPool({
      ...options,
      max: options.max ?? 10,
      connectTimeoutMs: options.connectTimeoutMs ?? 5000,
    });
    this.#schema = schema;
    this.#commitText = commitStatement(schema);
    this.#pool = pool;
    this.#db = { pool: this.#pool, schema };
    this.#batcher = createWriteBatcher((batch) => this.#commit(batch));
    this.#writes = batchedWrites(this.#batcher);
  }

  async init(): Promise<void> {
    // Two processes starting at once on a new schema (serve and a worker) take turns under a lock.
    await withSchemaLock({ pool: this.#pool, schema: this.#schema }, (client) =>
      client.query(this.#schemaDdl() + leaseDdl(this.#schema)),
    );
  }

  #schemaDdl(): string {
    const s = this.#schema;
    return `
      CREATE SCHEMA IF NOT EXISTS ${s};
      CREATE TABLE IF NOT EXISTS ${s}.runs (
        id TEXT PRIMARY KEY, agent TEXT NOT NULL, input TEXT NOT NULL, history TEXT, status TEXT NOT NULL, source TEXT NOT NULL,
        created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, result TEXT, questions TEXT, cancel_requested BOOLEAN
      );
      -- Added after the first release: a caller's client tools and output schema.
      ALTER TABLE ${s}.runs ADD COLUMN IF NOT EXISTS caller TEXT;
      -- And later: the run a fork came from.
      ALTER TABLE ${s}.runs ADD COLUMN IF NOT EXISTS forked_from TEXT;
      -- And later: the conversation thread a run is a turn of (a thread's shared workspace).
      ALTER TABLE ${s}.runs ADD COLUMN IF NOT EXISTS thread TEXT;
      CREATE INDEX IF NOT EXISTS runs_thread ON ${s}.runs (thread, created_at, id) WHERE thread IS NOT NULL;
      CREATE INDEX IF NOT EXISTS runs_status ON ${s}.runs (status);
      -- Listings page newest first and retention scans oldest first: both walk this index.
      CREATE INDEX IF NOT EXISTS runs_created ON ${s}.runs (created_at, id);
      CREATE TABLE IF NOT EXISTS ${s}.run_events (
        run_id TEXT NOT NULL, seq INTEGER NOT NULL, event TEXT NOT NULL, PRIMARY KEY (run_id, seq)
      );
      CREATE TABLE IF NOT EXISTS ${s}.run_checkpoints (
        run_id TEXT PRIMARY KEY, checkpoint TEXT NOT NULL, updated_at BIGINT NOT NULL
      );
      -- A checkpoint's steps, written once each (checkpoints written before this table hold them inline).
      CREATE TABLE IF NOT EXISTS ${s}.run_steps (
        run_id TEXT NOT NULL, idx INTEGER NOT NULL, step TEXT NOT NULL, PRIMARY KEY (run_id, idx)
      );
      -- The run's step journal (runStoreJournal): one record per key, in write order (seq).
      CREATE TABLE IF NOT EXISTS ${s}.run_journal (
        run_id TEXT NOT NULL, key TEXT NOT NULL, seq BIGSERIAL, record TEXT NOT NULL, PRIMARY KEY (run_id, key)
      );
      -- Who started each run; runs stored before owners keep none (only admins see them).
      ALTER TABLE ${s}.runs ADD COLUMN IF NOT EXISTS owner TEXT;
      CREATE INDEX IF NOT EXISTS runs_owner ON ${s}.runs (owner, created_at, id);
      -- Idempotency-Key claims: which run a caller's key started, and a fingerprint of the request that did.
      CREATE TABLE IF NOT EXISTS ${s}.run_idempotency_keys (
        scope TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, run_id TEXT NOT NULL, created_at BIGINT NOT NULL,
        PRIMARY KEY (scope, key)
      );
      CREATE INDEX IF NOT EXISTS run_idempotency_keys_created ON ${s}.run_idempotency_keys (created_at);`;
  }

  createRun(run: RunRecord): Promise<void> {
    return this.#writes.createRun(run);
  }

  createQueuedRun(run: RunRecord): Promise<void> {
    return addRun(this.#batcher, run, { outbox: true });
  }

  updateRun(id: string, patch: RunPatch): Promise<void> {
    return this.#writes.updateRun(id, patch);
  }

  appendEvent(runId: string, seq: number, event: AgentEvent): Promise<void> {
    return this.#writes.appendEvent(runId, seq, event);
  }

  saveCheckpoint(checkpoint: Checkpoint): Promise<void> {
    return this.#writes.saveCheckpoint(checkpoint);
  }

  markEnqueued(runIds: readonly string[]): Promise<void> {
    return this.#batcher.add((batch) => batch.enqueued.push(...runIds));
  }

  claimLease(runId: string, owner: string, ms: number): Promise<boolean> {
    return this.#run(() => claimLease(this.#pool, this.#schema, { runId, owner, ms }));
  }

  renewLeases(runIds: readonly string[], owner: string, ms: number): Promise<void> {
    // Never waits through an outage: the next renewal tries again.
    return this.#run(() => renewLeases(this.#pool, this.#schema, { runIds, owner, ms }), false);
  }

  releaseLeases(runIds: readonly string[], owner: string): Promise<void> {
    return this.#run(() => releaseLeases(this.#pool, this.#schema, { runIds, owner }), false);
  }

  async withRecoverableRuns(
    work: (runs: RecoverableRun[]) => Promise<void>,
    options: { limit?: number } = {},
  ): Promise<boolean> {
    await this.#batcher.flush();
    return this.#run(() => withRecoverableRuns(this.#pool, this.#schema, work, options.limit ?? 10_000), false);
  }

  waitThroughOutages(): void {
    this.#outage.waitThroughOutages();
  }

  ping(): Promise<void> {
    return this.#run(async () => {
      await boundedWait(this.#pool.query('SELECT 1'), { ms: 2000, dependency: 'postgres' });
    }, false);
  }

  onOutage(listener: (down: boolean) => void): () => void {
    return this.#outage.onOutage(listener);
  }

  /** One database call, through the outage gate. */
  #run<T>(call: () => Promise<T>, wait?: boolean): Promise<T> {
    return this.#outage.run(call, wait);
  }

  claimIdempotencyKey(claim: IdempotencyClaim, expiredBefore: number): Promise<IdempotencyClaim> {
    return this.#run(() => postgresClaimKey(this.#pool, this.#schema, claim, expiredBefore));
  }

  releaseIdempotencyKey(claim: Pick<IdempotencyClaim, 'scope' | 'key' | 'runId'>): Promise<void> {
    return this.#run(() => postgresReleaseKey(this.#pool, this.#schema, claim), false);
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    await this.#batcher.flush();
    const row = await this.#first<RunRow>('get_run', [id]);
    return row ? recordFromRow(row, this.#log(id)) : undefined;
  }

  async getStatus(id: string): Promise<ServerRunStatus | undefined> {
    await this.#batcher.flush();
    return (await this.#first<{ status: ServerRunStatus }>('get_status', [id]))?.status;
  }

  async getRuns(ids: readonly string[]): Promise<RunRecord[]> {
    await this.#batcher.flush();
    const { rows } = await this.#read<RunRow>('get_runs', [ids]);
    return recordsFromRows(rows, (runId) => this.#log(runId));
  }

  /** One run's log as stored, for rebuilding. */
  #log(runId: string): StoredLog {
    return {
      runId,
      at: async (seqs) => {
        const { rows } = await this.#read<{ seq: number; event: string }>('events_at', [runId, [...seqs]]);
        return new Map(rows.map((row) => [row.seq, JSON.parse(row.event)]));
      },
      input: async () => (await this.#first<{ input: string }>('get_input', [runId]))?.input,
      requests: this.#rebuilt,
    };
  }

  async listRuns(filter: { status: readonly ServerRunStatus[]; limit?: number }): Promise<RunRecord[]> {
    await this.#batcher.flush();
    const { rows } = await this.#run(() =>
      this.#pool.query<RunRow>(
        `SELECT * FROM ${this.#schema}.runs WHERE status = ANY($1) ORDER BY created_at LIMIT $2`,
        [filter.status, filter.limit ?? 10_000],
      ),
    );
    return recordsFromRows(rows, (runId) => this.#log(runId));
  }

  async queryRuns(query: RunQuery) {
    await this.#batcher.flush();
    return this.#run(async () => queries.queryRuns(this.#db, query));
  }

  // Retention and stats are background work: they fail at once in an outage rather than wait through it.
  async pruneRuns(request: PruneRequest) {
    await this.#batcher.flush();
    return this.#run(async () => queries.pruneRuns(this.#db, request), false);
  }

  async stats() {
    await this.#batcher.flush();
    return this.#run(async () => queries.stats(this.#db), false);
  }

  async vacuum() {
    await this.#batcher.flush();
    const before = (await this.stats()).bytes;
    const started = performance.now();
    const s = this.#schema;
    // Plain VACUUM: the space becomes reusable without locking the tables (VACUUM FULL would).
    await this.#pool.query(
      `VACUUM ${['runs', 'run_events', 'run_steps', 'run_checkpoints'].map((t) => `${s}.${t}`).join(', ')}`,
    );
    return { bytesBefore: before, bytesAfter: (await this.stats()).bytes, ms: performance.now() - started };
  }

  async readEvents(runId: string, afterSeq: number, limit = 1000): Promise<StoredEvent[]> {
    await this.#batcher.flush();
    return rebuildEvents(await this.#readStored(runId, afterSeq, limit), this.#log(runId));
  }

  /** Events as stored (model requests compact, strings shared). */
  async #readStored(runId: string, afterSeq: number, limit: number): Promise<StoredEvent[]> {
    const { rows } = await this.#read<{ seq: number; event: string }>('read_events', [runId, afterSeq, limit]);
    return rows.map((row) => ({ seq: row.seq, event: JSON.parse(row.event) }));
  }

  async lastSeq(runId: string): Promise<number> {
    await this.#batcher.flush();
    return (await this.#first<{ seq: number | null }>('last_seq', [runId]))?.seq ?? 0;
  }

  async loadCheckpoint(runId: string): Promise<Checkpoint | undefined> {
    await this.#batcher.flush();
    const stored = await this.#first<{ checkpoint: string }>('load_checkpoint', [runId]);
    return this.#memo.readCheckpoint(runId, stored?.checkpoint, async (count) => {
      const steps = await this.#read<{ step: string }>('load_steps', [runId, count]);
      return steps.rows.map((row) => row.step);
    });
  }

  /** Written at once, outside the batch: the step waits for it, and nothing else in the batch depends on it. */
  async appendJournal(runId: string, entry: RunJournalEntry): Promise<void> {
    await this.#read('append_journal', [runId, entry.key, redactedJson(entry.record)]);
  }

  async readJournal(runId: string): Promise<RunJournalEntry[]> {
    const { rows } = await this.#read<{ key: string; record: string }>('read_journal', [runId]);
    return rows.map((row) => ({ key: row.key, record: JSON.parse(row.record) }));
  }

  /** Drops the schema and everything in it (tests use a schema of their own). */
  async drop(): Promise<void> {
    await this.#batcher.flush();
    await this.#pool.query(`DROP SCHEMA IF EXISTS ${this.#schema} CASCADE`);
  }

  async close(): Promise<void> {
    await this.#batcher.flush();
    this.#outage.close();
    await this.#pool.end();
  }

  /** One of `READS`, as a named statement. */
  #read<R extends pg.QueryResultRow>(name: keyof typeof READS, values: unknown[]): Promise<pg.QueryResult<R>> {
    const text = READS[name](this.#schema);
    return this.#run(() => this.#pool.query<R>({ name: `thinkflow_${name}`, text, values }));
  }

  /** The first row a read finds, if any. */
  async #first<R extends pg.QueryResultRow>(name: keyof typeof READS, values: unknown[]): Promise<R | undefined> {
    return (await this.#read<R>(name, values)).rows[0];
  }

  async #commit(batch: WriteBatch): Promise<void> {
    if (isEmptyBatch(batch)) return;
    const values = commitValues(batch, this.#memo.stepsStored, this.#memo);
    try {
      // Retried with the same values through an outage (workers): each commit is idempotent, and
      // commits land in order, so the steps and shared strings they refer to are the ones stored.
      await this.#run(() => this.#pool.query({ name: 'thinkflow_commit', text: this.#commitText, values }));
    } catch (error) {
      this.#memo.reset();
      throw error;
    }
    for (const [runId, checkpoint] of batch.checkpoints) this.#memo.stepsStored.set(runId, checkpoint.steps.length);
    this.#memo.forgetEnded(batch);
  }
}
