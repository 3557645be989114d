import type { AgentEvent } from '../core/index.js';
import { openSqlite, type SqliteLocation } from '../memory/index.js';
import type {
  RunLease,
  StepRecord,
  WorkflowEventRecord,
  WorkflowRunQuery,
  WorkflowRunRecord,
  WorkflowStore,
} from './workflow-types.js';

function matches(run: WorkflowRunRecord, query: WorkflowRunQuery): boolean {
  return (
    (query.workflowId === undefined || run.workflowId === query.workflowId) &&
    (query.status === undefined || run.status === query.status) &&
    (query.owner === undefined || run.owner === query.owner) &&
    (query.before === undefined || run.createdAt < query.before)
  );
}

/** Whether `current` leaves the run free for `lease`: none, its own, expired, or the dead holder `expected`. */
export function leaseFree(current: RunLease | undefined, lease: RunLease, expected?: RunLease): boolean {
  if (!current || current.holder === lease.holder || current.until < Date.now()) return true;
  return expected !== undefined && current.holder === expected.holder && current.until === expected.until;
}

/**
 * Keeps runs in memory: for tests and one-shot scripts, gone with the process. Step outputs are kept
 * by reference, as a step returned them (a step that mutates its input after it was checkpointed
 * changes the checkpoint too; the SQLite store serialises instead).
 */
export function memoryWorkflowStore(): WorkflowStore {
  const runs = new Map<string, WorkflowRunRecord>();
  const steps = new Map<string, Record<string, StepRecord>>();
  const events = new Map<string, WorkflowEventRecord[]>();
  const leases = new Map<string, RunLease>();
  return {
    local: true,
    createRun(run, initial = {}) {
      if (runs.has(run.id)) throw new Error(`Workflow run "${run.id}" already exists.`);
      // Copies made with Object.assign, not a spread: on Node 20 a spread copy that later gains a
      // property (a run's output, a step's path) takes a slow path, ~4 µs per added property.
      runs.set(run.id, Object.assign({}, run));
      steps.set(run.id, Object.assign({}, initial));
    },
    async getRun(runId) {
      const run = runs.get(runId);
      return run && Object.assign({}, run);
    },
    updateRun(runId, patch) {
      // The stored record is this store's own copy (getRun hands out copies): patched in place.
      const run = runs.get(runId);
      if (run) Object.assign(run, patch).updatedAt = Date.now();
    },
    async loadSteps(runId) {
      return Object.assign({}, steps.get(runId));
    },
    async loadStepsAt(runId, paths) {
      const all = steps.get(runId) ?? {};
      const out: Record<string, StepRecord> = {};
      for (const path of paths) if (all[path]) out[path] = all[path];
      return out;
    },
    saveStep(runId, path, record) {
      const all = steps.get(runId);
      if (all) all[path] = record;
      else steps.set(runId, { [path]: record });
    },
    async deleteSteps(runId, paths) {
      const all = steps.get(runId);
      for (const path of paths) delete all?.[path];
    },
    async runIdsWithStatus(status) {
      return [...runs.values()].filter((r) => r.status === status).map((r) => r.id);
    },
    async listRuns(query) {
      return [...runs.values()]
        .filter((r) => matches(r, query))
        .sort((a, b) => b.createdAt - a.createdAt)
        .slice(0, query.limit)
        .map((r) => Object.assign({}, r));
    },
    async appendEvents(runId, more) {
      const log = events.get(runId) ?? [];
      events.set(runId, log);
      for (const event of more) log.push({ seq: log.length + 1, event });
    },
    async readEvents(runId, afterSeq, limit = 1000) {
      return (events.get(runId) ?? []).slice(afterSeq, afterSeq + limit);
    },
    claimRun(runId, lease, expected) {
      if (!leaseFree(leases.get(runId), lease, expected)) return false;
      leases.set(runId, { ...lease });
      return true;
    },
    async leaseOf(runId) {
      const lease = leases.get(runId);
      return lease && { ...lease };
    },
    releaseRun(runId, holder) {
      if (leases.get(runId)?.holder === holder) leases.delete(runId);
    },
  };
}

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
