import type { AgentEvent } from '../core/index.js';
import { openSqlite, type SqliteLocation } from '../memory/node.js';
import { leaseFree } from './workflow-store.js';
import type { RunLease, StepRecord, WorkflowRunRecord, WorkflowStore } from './workflow-types.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS workflow_runs (
  id TEXT PRIMARY KEY, workflow_id TEXT NOT NULL, definition_hash TEXT NOT NULL, status TEXT NOT NULL,
  record TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS workflow_runs_status ON workflow_runs (workflow_id, status);
CREATE TABLE IF NOT EXISTS workflow_steps (
  run_id TEXT NOT NULL, path TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (run_id, path)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS workflow_events (
  run_id TEXT NOT NULL, seq INTEGER NOT NULL, event TEXT NOT NULL, PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS workflow_leases (
  run_id TEXT PRIMARY KEY, holder TEXT NOT NULL, until INTEGER NOT NULL
) WITHOUT ROWID;
`;

/**
 * Keeps workflow runs and their step checkpoints in SQLite (the same `thinkflow.db` as the other
 * stores by default): each finished step is one commit, so a killed process resumes without re-running it.
 */
export function sqliteWorkflowStore(location: SqliteLocation = {}): WorkflowStore {
  const { db } = openSqlite(location);
  db.exec(SCHEMA);
  const insertRun = db.prepare(
    'INSERT INTO workflow_runs (id, workflow_id, definition_hash, status, record, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const selectRun = db.prepare('SELECT record FROM workflow_runs WHERE id = ?');
  const writeRun = db.prepare(
    'UPDATE workflow_runs SET status = ?, definition_hash = ?, record = ?, updated_at = ? WHERE id = ?',
  );
  const selectSteps = db.prepare('SELECT path, record FROM workflow_steps WHERE run_id = ?');
  const selectStep = db.prepare('SELECT record FROM workflow_steps WHERE run_id = ? AND path = ?');
  const upsertStep = db.prepare(
    'INSERT INTO workflow_steps (run_id, path, record) VALUES (?, ?, ?) ON CONFLICT (run_id, path) DO UPDATE SET record = excluded.record',
  );
  const deleteStep = db.prepare('DELETE FROM workflow_steps WHERE run_id = ? AND path = ?');
  const selectByStatus = db.prepare('SELECT id FROM workflow_runs WHERE status = ?');
  const lastSeq = db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM workflow_events WHERE run_id = ?');
  const insertEvent = db.prepare('INSERT INTO workflow_events (run_id, seq, event) VALUES (?, ?, ?)');
  const selectEvents = db.prepare(
    'SELECT seq, event FROM workflow_events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?',
  );
  const selectLease = db.prepare('SELECT holder, until FROM workflow_leases WHERE run_id = ?');
  const upsertLease = db.prepare(
    'INSERT INTO workflow_leases (run_id, holder, until) VALUES (?, ?, ?) ON CONFLICT (run_id) DO UPDATE SET holder = excluded.holder, until = excluded.until',
  );
  const deleteLease = db.prepare('DELETE FROM workflow_leases WHERE run_id = ? AND holder = ?');
  // Immediate: the write lock is taken before the read, so two processes never number or claim alike.
  const append = db.transaction((runId: string, events: AgentEvent[]) => {
    let seq = (lastSeq.get(runId) as { seq: number }).seq;
    for (const event of events) insertEvent.run(runId, ++seq, JSON.stringify(event));
  });
  const claim = db.transaction((runId: string, lease: RunLease, expected?: RunLease) => {
    if (!leaseFree(selectLease.get(runId) as RunLease | undefined, lease, expected)) return false;
    upsertLease.run(runId, lease.holder, lease.until);
    return true;
  });
  const readRun = (runId: string): WorkflowRunRecord | undefined => {
    const row = selectRun.get(runId) as { record: string } | undefined;
    return row ? (JSON.parse(row.record) as WorkflowRunRecord) : undefined;
  };
  const create = db.transaction((run: WorkflowRunRecord, initial: Record<string, StepRecord>) => {
    insertRun.run(
      run.id,
      run.workflowId,
      run.definitionHash,
      run.status,
      JSON.stringify(run),
      run.createdAt,
      run.updatedAt,
    );
    for (const [path, record] of Object.entries(initial)) upsertStep.run(run.id, path, JSON.stringify(record));
  });
  return {
    createRun(run, initial = {}) {
      create(run, initial);
    },
    async getRun(runId) {
      return readRun(runId);
    },
    updateRun(runId, patch) {
      const run = readRun(runId);
      if (!run) return;
      const next = Object.assign({}, run, patch, { updatedAt: Date.now() });
      writeRun.run(next.status, next.definitionHash, JSON.stringify(next), next.updatedAt, runId);
    },
    async loadSteps(runId) {
      const out: Record<string, StepRecord> = {};
      for (const row of selectSteps.all(runId) as { path: string; record: string }[])
        out[row.path] = JSON.parse(row.record);
      return out;
    },
    async loadStepsAt(runId, paths) {
      const out: Record<string, StepRecord> = {};
      for (const path of paths) {
        const row = selectStep.get(runId, path) as { record: string } | undefined;
        if (row) out[path] = JSON.parse(row.record);
      }
      return out;
    },
    saveStep(runId, path, record) {
      upsertStep.run(runId, path, JSON.stringify(record));
    },
    async deleteSteps(runId, paths) {
      for (const path of paths) deleteStep.run(runId, path);
    },
    async runIdsWithStatus(status) {
      return (selectByStatus.all(status) as { id: string }[]).map((row) => row.id);
    },
    async listRuns(query) {
      const where: string[] = [];
      const values: (string | number)[] = [];
      const add = (sql: string, value: string | number) => {
        where.push(sql);
        values.push(value);
      };
      if (query.workflowId !== undefined) add('workflow_id = ?', query.workflowId);
      if (query.status !== undefined) add('status = ?', query.status);
      if (query.owner !== undefined) add("json_extract(record, '$.owner') = ?", query.owner);
      if (query.before !== undefined) add('created_at < ?', query.before);
      const sql = `SELECT record FROM workflow_runs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC LIMIT ?`;
      return (db.prepare(sql).all(...values, query.limit) as { record: string }[]).map(
        (row) => JSON.parse(row.record) as WorkflowRunRecord,
      );
    },
    async appendEvents(runId, events) {
      if (events.length > 0) append.immediate(runId, events);
    },
    async readEvents(runId, afterSeq, limit = 1000) {
      return (selectEvents.all(runId, afterSeq, limit) as { seq: number; event: string }[]).map((row) => ({
        seq: row.seq,
        event: JSON.parse(row.event) as AgentEvent,
      }));
    },
    claimRun(runId, lease, expected) {
      return claim.immediate(runId, lease, expected);
    },
    async leaseOf(runId) {
      return selectLease.get(runId) as RunLease | undefined;
    },
    releaseRun(runId, holder) {
      deleteLease.run(runId, holder);
    },
    close() {
      db.close();
    },
  };
}
