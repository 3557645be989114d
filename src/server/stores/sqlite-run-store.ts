import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Checkpoint } from '../../agent/index.js';
import type { AgentEvent } from '../../core/index.js';
import type { RunPatch, RunRecord, ServerRunStatus, StoredEvent } from '../run-record.js';
import { PATCH_COLUMNS, patchValue, type RunRow, rowToRecord } from './row-codec.js';
import type { RunStore } from './run-store.js';
import { createWriteBatcher, mergePatch, type WriteBatch, type WriteBatcher } from './write-batch.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY, agent TEXT NOT NULL, input TEXT NOT NULL, history TEXT, status TEXT NOT NULL, source TEXT NOT NULL,
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, result TEXT, questions TEXT, cancel_requested INTEGER
);
CREATE INDEX IF NOT EXISTS runs_status ON runs (status);
-- A rowid table: events are appended in time order, and only the small (run_id, seq) index takes random inserts.
CREATE TABLE IF NOT EXISTS run_events (run_id TEXT NOT NULL, seq INTEGER NOT NULL, event TEXT NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS run_events_seq ON run_events (run_id, seq);
CREATE TABLE IF NOT EXISTS run_checkpoints (run_id TEXT PRIMARY KEY, checkpoint TEXT NOT NULL, updated_at INTEGER NOT NULL);
`;

/**
 * The default run store: one SQLite file in WAL mode with `synchronous=NORMAL`, written in one
 * transaction per tick.
 *
 * @example
 * const store = new SqliteRunStore({ path: '~/.thinkflow/runs.db' });
 */
export class SqliteRunStore implements RunStore {
  readonly #db: Database.Database;
  readonly #batcher: WriteBatcher;
  readonly #statements = new Map<string, Database.Statement>();

  constructor(options: { path: string }) {
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
    this.#db = new Database(options.path);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = NORMAL');
    this.#db.pragma('busy_timeout = 5000');
    this.#db.exec(SCHEMA);
    const commit = this.#db.transaction((batch: WriteBatch) => this.#commit(batch));
    this.#batcher = createWriteBatcher((batch) => commit(batch));
  }

  async init(): Promise<void> {}

  createRun(run: RunRecord): Promise<void> {
    return this.#batcher.add((batch) => batch.creates.push(run));
  }

  updateRun(id: string, patch: RunPatch): Promise<void> {
    return this.#batcher.add((batch) => mergePatch(batch, id, patch));
  }

  appendEvent(runId: string, seq: number, event: AgentEvent): Promise<void> {
    return this.#batcher.add((batch) => batch.events.push({ runId, seq, event }));
  }

  saveCheckpoint(checkpoint: Checkpoint): Promise<void> {
    return this.#batcher.add((batch) => batch.checkpoints.set(checkpoint.runId, checkpoint));
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    await this.#batcher.flush();
    const row = this.#statement('SELECT * FROM runs WHERE id = ?').get(id) as RunRow | undefined;
    return row ? rowToRecord(row) : undefined;
  }

  async listRuns(filter: { status: readonly ServerRunStatus[]; limit?: number }): Promise<RunRecord[]> {
    await this.#batcher.flush();
    const marks = filter.status.map(() => '?').join(',');
    const rows = this.#db
      .prepare(`SELECT * FROM runs WHERE status IN (${marks}) ORDER BY created_at LIMIT ?`)
      .all(...filter.status, filter.limit ?? 10_000) as RunRow[];
    return rows.map(rowToRecord);
  }

  async readEvents(runId: string, afterSeq: number, limit = 1000): Promise<StoredEvent[]> {
    await this.#batcher.flush();
    const rows = this.#statement(
      'SELECT seq, event FROM run_events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?',
    ).all(runId, afterSeq, limit) as { seq: number; event: string }[];
    return rows.map((row) => ({ seq: row.seq, event: JSON.parse(row.event) }));
  }

  async lastSeq(runId: string): Promise<number> {
    await this.#batcher.flush();
    const row = this.#statement('SELECT MAX(seq) AS seq FROM run_events WHERE run_id = ?').get(runId) as {
      seq: number | null;
    };
    return row.seq ?? 0;
  }

  async loadCheckpoint(runId: string): Promise<Checkpoint | undefined> {
    await this.#batcher.flush();
    const row = this.#statement('SELECT checkpoint FROM run_checkpoints WHERE run_id = ?').get(runId) as
      | { checkpoint: string }
      | undefined;
    return row ? JSON.parse(row.checkpoint) : undefined;
  }

  async close(): Promise<void> {
    await this.#batcher.flush();
    this.#db.close();
  }

  #commit(batch: WriteBatch): void {
    const insertRun = this.#statement(
      'INSERT INTO runs (id, agent, input, history, status, source, created_at, updated_at, result, questions, cancel_requested) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const run of batch.creates) {
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
      );
    }
    for (const [id, patch] of batch.patches) this.#patch(id, patch);
    const insertEvent = this.#statement('INSERT OR REPLACE INTO run_events (run_id, seq, event) VALUES (?, ?, ?)');
    for (const e of batch.events) insertEvent.run(e.runId, e.seq, JSON.stringify(e.event));
    const saveCheckpoint = this.#statement(
      'INSERT OR REPLACE INTO run_checkpoints (run_id, checkpoint, updated_at) VALUES (?, ?, ?)',
    );
    for (const [runId, checkpoint] of batch.checkpoints)
      saveCheckpoint.run(runId, JSON.stringify(checkpoint), Date.now());
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
    this.#statement(`UPDATE runs SET ${sets} WHERE id = ?`).run(
      ...keys.map((key) => patchValue(key, patch[key], true)),
      id,
    );
  }
}
