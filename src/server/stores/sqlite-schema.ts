import type Database from 'better-sqlite3';

/**
 * Tables of the SQLite run store. Run ids are time-ordered (`newRunId`), so every index keyed by
 * run id takes its inserts near its right edge and a commit touches a few pages, not one per run.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY, agent TEXT NOT NULL, input TEXT NOT NULL, history TEXT, status TEXT NOT NULL, source TEXT NOT NULL,
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, result TEXT, questions TEXT, cancel_requested INTEGER,
  caller TEXT, owner TEXT, forked_from TEXT, thread TEXT
);
CREATE INDEX IF NOT EXISTS runs_status ON runs (status);
-- Listings page newest first and retention scans oldest first: both walk this index.
CREATE INDEX IF NOT EXISTS runs_created ON runs (created_at, id);
-- One row per run per commit: the events numbered first_seq..last_seq, as a JSON array.
CREATE TABLE IF NOT EXISTS run_event_blocks (
  run_id TEXT NOT NULL, first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL, events TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS run_event_blocks_seq ON run_event_blocks (run_id, last_seq);
-- The checkpoint without its steps (and their count); the steps, written once each, in run_steps.
CREATE TABLE IF NOT EXISTS run_checkpoints (run_id TEXT PRIMARY KEY, checkpoint TEXT NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS run_steps (run_id TEXT NOT NULL, idx INTEGER NOT NULL, step TEXT NOT NULL, PRIMARY KEY (run_id, idx));
-- The run's step journal (runStoreJournal): one record per key (a model call, a tool call, an answer...), in write order.
CREATE TABLE IF NOT EXISTS run_journal (
  run_id TEXT NOT NULL, key TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (run_id, key)
);
-- Idempotency-Key claims: which run a caller's key started, and a fingerprint of the request that did.
CREATE TABLE IF NOT EXISTS run_idempotency_keys (
  scope TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, run_id TEXT NOT NULL, created_at INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX IF NOT EXISTS run_idempotency_keys_created ON run_idempotency_keys (created_at);
`;

/**
 * Creates the tables, adds the `owner` column to a file made before runs had owners (its runs keep no
 * owner: only admins see them), and moves a log kept one event per row (before blocks) into blocks.
 */
export function openSchema(db: Database.Database): void {
  db.exec(SCHEMA);
  // Under the write lock, read again: two processes opening one older file at once would otherwise both
  // see a column missing, and the second ALTER would fail with "duplicate column name".
  db.transaction(() => {
    const columns = db.prepare('PRAGMA table_info(runs)').all() as { name: string }[];
    if (!columns.some((column) => column.name === 'owner')) db.exec('ALTER TABLE runs ADD COLUMN owner TEXT');
    // A store made before runs kept their caller's options (client tools, output schema) gains the column.
    if (!columns.some((column) => column.name === 'caller')) db.exec('ALTER TABLE runs ADD COLUMN caller TEXT');
    // And one made before runs could be forked, the run each fork came from.
    if (!columns.some((column) => column.name === 'forked_from'))
      db.exec('ALTER TABLE runs ADD COLUMN forked_from TEXT');
    // And one made before runs named their conversation thread (a thread's shared workspace).
    if (!columns.some((column) => column.name === 'thread')) db.exec('ALTER TABLE runs ADD COLUMN thread TEXT');
  }).immediate();
  // A caller's listing walks its own runs, newest first.
  db.exec('CREATE INDEX IF NOT EXISTS runs_owner ON runs (owner, created_at, id)');
  // A thread's runs, newest first: the turn before a run, and whether a thread is busy or swept.
  db.exec('CREATE INDEX IF NOT EXISTS runs_thread ON runs (thread, created_at, id) WHERE thread IS NOT NULL');
  const legacy = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'run_events'").get();
  if (!legacy) return;
  db.transaction(() => {
    db.exec(`INSERT OR REPLACE INTO run_event_blocks (run_id, first_seq, last_seq, events)
      SELECT run_id, seq, seq, '[' || event || ']' FROM run_events ORDER BY rowid`);
    db.exec('DROP TABLE run_events');
  })();
}
